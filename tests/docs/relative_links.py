"""Every relative link of the repository's Markdown (README.md and docs/) names a file or folder
of the repository, so that a clone stands on its own: a link to a place outside it, or to a file
since moved, fails with the file, the line and the link."""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1]).resolve()
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def markdown_files():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").rglob("*.md"))


def main():
    broken, seen = [], 0
    for path in markdown_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue  # a web address, a mail address, a heading on the same page
                seen += 1
                place = (path.parent / target.split("#")[0]).resolve()
                if not place.is_relative_to(ROOT):
                    broken.append(f"{path.relative_to(ROOT)}:{number}: {target}: outside the repository")
                elif not place.exists():
                    broken.append(f"{path.relative_to(ROOT)}:{number}: {target}: no such file")
    for line in broken:
        print(line)
    print(f"{seen} relative links, {len(broken)} broken")
    return 1 if broken or seen == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
