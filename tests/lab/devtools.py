"""Headless chromium driven through the DevTools protocol (python3-websocket): load a page, run script
in it, collect console errors and uncaught exceptions, take screenshots."""
import base64
import json
import shutil
import subprocess
import urllib.request

import websocket

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, width=1400, height=1000):
        assert CHROMIUM, "chromium is not installed (apt-get install chromium)"
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
             "--remote-allow-origins=*", f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in self.process.stderr:
            if "DevTools listening on" in line:
                port = line.rsplit(":", 1)[1].split("/")[0]
                break
        else:
            raise RuntimeError("chromium did not open its DevTools port")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as response:
            page = next(t for t in json.load(response) if t["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=120)
        self.next_id = 0
        self.events = []
        for domain in ("Runtime", "Page", "Log"):
            self.call(f"{domain}.enable")

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method):
        while True:
            message = json.loads(self.socket.recv())
            self.events.append(message)
            if message.get("method") == method:
                return message

    def open(self, url):
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        """The value of `expression` in the page, awaited when it is a promise; raises on an exception."""
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(json.dumps(result["exceptionDetails"])[:2000])
        return result["result"].get("value")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def errors(self):
        """Uncaught exceptions, console.error calls and error log entries seen so far. A 400 is the API
        refusing bad input as it should (the tests provoke it), not an error of the page."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(params["exceptionDetails"].get("exception", {}).get("description", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                entry = params["entry"]
                if not (entry.get("source") == "network" and "status of 400" in entry.get("text", "")):
                    found.append(entry.get("text", ""))
        return found

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        self.socket.close()
        self.process.terminate()
        self.process.wait(timeout=10)
