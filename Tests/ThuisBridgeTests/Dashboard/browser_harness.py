#!/usr/bin/python3
"""A real browser for the dashboard's tests: headless Debian Chromium through chromium-driver and python3-selenium.

One JSON command a line on stdin, one answer a line on stdout: {"id": N, "ok": true, "result": ...} or
{"id": N, "ok": false, "error": "..."}. Every wait is WebDriverWait on the page's own state (data-state,
elements appearing), bounded by the command's "timeout" (seconds); none sleeps to synchronise.

Commands:
  open {url}                         load a page; result: the body's text (first 2000 characters)
  watch {topic, state}               start watching a tile: notes the time (ms since 1970, the browser's clock)
                                     its data-state first becomes `state`
  watched {topic, state}             wait for that; result: the time noted
  wait_state {topic, state}          wait until the tile of `topic` has data-state `state`; result: its state
  state {topic}                      the tile's data-state now (null: no such tile)
  keys {selector, keys}              focus an element and press keys (names of selenium's Keys, or text)
  click {selector}                   click an element (waits until it is clickable)
  wait_text {selector, contains}     wait until an element's text contains `contains`; result: the text
  socket {path}                      open a WebSocket from the page; result: "open" or "closed <code>"
  screenshot {path, width, height}   a PNG of the page at that window size
  script {source, args}              run `source` as an async script (its last argument is the callback to call
                                     with the result); result: what it passed
  quit
"""
import json
import sys

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as conditions
from selenium.webdriver.support.ui import WebDriverWait


def start():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(120)
    return driver


def tile(topic):
    return f'[data-topic="{topic}"]'


WATCH = """
const [topic, state] = arguments;
window.__thuisSeen = window.__thuisSeen || {};
const key = topic + " " + state;
const element = document.querySelector(`[data-topic="${topic}"]`);
if (!element) return false;
const observer = new MutationObserver(() => {
  if (element.dataset.state === state && !(key in window.__thuisSeen)) {
    window.__thuisSeen[key] = performance.timeOrigin + performance.now();
    observer.disconnect();
  }
});
observer.observe(element, { attributes: true, attributeFilter: ["data-state"] });
return true;
"""

SOCKET = """
const [path, done] = [arguments[0], arguments[arguments.length - 1]];
const scheme = location.protocol === "https:" ? "wss:" : "ws:";
const socket = new WebSocket(`${scheme}//${location.host}${path}`);
socket.onopen = () => { done("open"); socket.close(); };
socket.onclose = (close) => done(`closed ${close.code}`);
"""


def run(driver, command):
    name = command["command"]
    timeout = command.get("timeout", 30)
    # A page that draws an element again (the node page's facts on every state) leaves a found one stale: look again.
    wait = WebDriverWait(driver, timeout, poll_frequency=0.02, ignored_exceptions=(StaleElementReferenceException,))
    if name == "open":
        driver.get(command["url"])
        return driver.find_element(By.TAG_NAME, "body").text[:2000]
    if name == "watch":
        selector = tile(command["topic"])
        wait.until(conditions.presence_of_element_located((By.CSS_SELECTOR, selector)))
        return driver.execute_script(WATCH, command["topic"], command["state"])
    if name == "watched":
        key = command["topic"] + " " + command["state"]
        return wait.until(lambda d: d.execute_script("return (window.__thuisSeen || {})[arguments[0]];", key))
    if name == "wait_state":
        selector = tile(command["topic"])
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("data-state") == command["state"])
        return command["state"]
    if name == "state":
        found = driver.find_elements(By.CSS_SELECTOR, tile(command["topic"]))
        return found[0].get_attribute("data-state") if found else None
    if name == "keys":
        element = wait.until(conditions.element_to_be_clickable((By.CSS_SELECTOR, command["selector"])))
        element.send_keys(*[getattr(Keys, key) if hasattr(Keys, key) else key for key in command["keys"]])
        return True
    if name == "click":
        element = wait.until(conditions.element_to_be_clickable((By.CSS_SELECTOR, command["selector"])))
        element.click()
        return True
    if name == "wait_text":
        selector = command["selector"]

        def containing(d):
            text = d.find_element(By.CSS_SELECTOR, selector).text
            return [text] if command["contains"] in text else False

        return wait.until(containing)[0]
    if name == "displayed":
        return [element.is_displayed() for element in driver.find_elements(By.CSS_SELECTOR, command["selector"])]
    if name == "socket":
        return driver.execute_async_script(SOCKET, command["path"])
    if name == "script":
        return driver.execute_async_script(command["source"], *command.get("args", []))
    if name == "screenshot":
        driver.set_window_size(command.get("width", 1280), command.get("height", 800))
        return driver.save_screenshot(command["path"])
    raise ValueError(f"unknown command {name}")


def answer(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    try:
        driver = start()
    except WebDriverException as error:
        answer({"id": 0, "ok": False, "error": f"chromium did not start: {error.msg}"})
        return 1
    answer({"id": 0, "ok": True, "result": driver.capabilities.get("browserVersion", "?")})
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            if command["command"] == "quit":
                answer({"id": command["id"], "ok": True, "result": True})
                break
            try:
                answer({"id": command["id"], "ok": True, "result": run(driver, command)})
            except TimeoutException:
                seen = driver.find_element(By.TAG_NAME, "body").text[:1500] if driver.current_url else ""
                answer({"id": command["id"], "ok": False,
                        "error": f"timed out after {command.get('timeout', 30)} s; the page shows:\n{seen}"})
            except Exception as error:  # every failure is an answer, never a dead harness
                answer({"id": command["id"], "ok": False, "error": f"{type(error).__name__}: {error}"})
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
