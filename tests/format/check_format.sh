#!/usr/bin/env bash
# Every tracked C++ file of the source tree in the layout of its .clang-format. Layouts differ between
# clang-format's major versions, so the check runs under the one the tree was formatted with and
# reports itself skipped (not passed) under another, outside a git work tree, or without the tool.
set -euo pipefail
source_dir=$1
formatted_with=14
cd "$source_dir"
if ! command -v clang-format >/dev/null; then
  echo "crawlq-skipped: clang-format is not installed (.ci/install-deps installs it)"
  exit 0
fi
major=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != "$formatted_with" ]; then
  echo "crawlq-skipped: clang-format $major lays code out otherwise than $formatted_with, which formatted the tree"
  exit 0
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "crawlq-skipped: $source_dir is not a git work tree, so there is no list of tracked files"
  exit 0
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
clang-format --dry-run --Werror "${files[@]}"
echo "${#files[@]} files in clang-format $major's layout"
