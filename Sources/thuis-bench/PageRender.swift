import Foundation
import LabSupport

/// The dashboard's network and map pages opened in headless Chromium (Debian's `chromium`, `chromium-driver` and
/// `python3-selenium`) against a running bridge: navigation start → every node shown and painted, three loads of each
/// page in one browser (the first fetches the assets). Screenshots of both pages, and of one node's page after its
/// health check, are kept in the run's directory.
enum PageRender {
    struct Outcome: Sendable {
        /// Navigation start → every node's row in the node and statistics tables, painted (ms), per load.
        var network: [Double] = []
        /// Navigation start → every node on the map, painted (ms), per load.
        var map: [Double] = []
        /// The map's own drawing (layout and SVG), as the page measures it (ms), per load.
        var mapDraw: [Double] = []
        var screenshots: [String] = []
        /// Why there is no figure (no browser, the page never showed every node).
        var problem: String?
    }

    static let python = "/usr/bin/python3"

    static var isInstalled: Bool {
        let files = FileManager.default
        return files.isExecutableFile(atPath: "/usr/bin/chromium")
            && files.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && files.isExecutableFile(atPath: python)
            && files.fileExists(atPath: "/usr/lib/python3/dist-packages/selenium")
    }

    /// Opens `http://127.0.0.1:<port>` pages of a bridge whose network has `nodes` nodes; `node` is the one whose
    /// page is photographed after a health check.
    static func measure(port: Int, nodes: Int, node: Int, directory: String, log: (String) -> Void) async -> Outcome {
        guard isInstalled else {
            return Outcome(problem: "no headless browser (chromium, chromium-driver, python3-selenium)")
        }
        let script = (directory as NSString).appendingPathComponent("page_render.py")
        let logPath = (directory as NSString).appendingPathComponent("page-render.log")
        do {
            try source.write(toFile: script, atomically: true, encoding: .utf8)
            let process = try ChildProcess.bench(
                python, [script, "http://127.0.0.1:\(port)", String(nodes), String(node), directory],
                directory: directory, logPath: logPath)
            let deadline = ContinuousClock.now + .seconds(300)
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            await process.stop(timeout: .seconds(5))
        } catch {
            return Outcome(problem: "the browser run failed: \(error)")
        }
        var outcome = Outcome()
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                continue
            }
            if let problem = object["problem"] as? String { outcome.problem = problem }
            if let shot = object["screenshot"] as? String { outcome.screenshots.append(shot) }
            guard let page = object["page"] as? String, let shown = object["shown_ms"] as? Double else { continue }
            if page == "network" { outcome.network.append(shown) } else { outcome.map.append(shown) }
            if let draw = object["draw_ms"] as? Double { outcome.mapDraw.append(draw) }
        }
        if outcome.network.isEmpty || outcome.map.isEmpty, outcome.problem == nil {
            outcome.problem = "no figure from the browser, see \(logPath)"
        }
        log(
            "  pages in Chromium: network \(outcome.network.map { String(format: "%.0f", $0) }) ms, map "
                + "\(outcome.map.map { String(format: "%.0f", $0) }) ms (drawing "
                + "\(outcome.mapDraw.map { String(format: "%.0f", $0) }) ms)"
                + (outcome.problem.map { ", \($0)" } ?? "") + "; screenshots: \(outcome.screenshots)")
        return outcome
    }

    /// The browser side. Before any script of the page runs, an observer is installed that notes when the page first
    /// shows every node (then one animation frame and a task later: painted); the harness waits for that note.
    static let source = #"""
        import json
        import sys

        from selenium import webdriver
        from selenium.common.exceptions import TimeoutException, WebDriverException
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        base, nodes, node, directory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        SHOWN = {
            "network": "document.querySelectorAll('tr[data-node]').length >= %d"
                       " && document.querySelectorAll('tr[data-stats-node]').length >= %d" % (nodes, nodes),
            "map": "Number(document.querySelector('[data-render-ms]')?.dataset.nodes || 0) >= %d" % nodes,
        }
        OBSERVER = """
        (() => {
          const shown = () => { try { return %s; } catch (error) { return false; } };
          let seen = false;
          const note = () => {
            if (seen || !shown()) return;
            seen = true;
            requestAnimationFrame(() => setTimeout(() => { window.__thuisShown = performance.now(); }, 0));
          };
          new MutationObserver(note).observe(document, { childList: true, subtree: true, attributes: true });
        })();
        """


        def report(**fields):
            print(json.dumps(fields), flush=True)


        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1400,1100", "--hide-scrollbars", "--no-first-run", "--disable-extensions"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            for page, path in (("network", "/network"), ("map", "/network/map")):
                script = driver.execute_cdp_cmd(
                    "Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVER % SHOWN[page]})["identifier"]
                for load in range(3):
                    driver.get(base + path)
                    try:
                        shown = WebDriverWait(driver, 120, poll_frequency=0.05).until(
                            lambda d: d.execute_script("return window.__thuisShown"))
                    except TimeoutException:
                        report(problem=f"{path} did not show {nodes} nodes within 120 s: "
                                       + driver.find_element(By.TAG_NAME, "body").text[:300])
                        break
                    draw = driver.execute_script(
                        "return Number(document.querySelector('[data-render-ms]')?.dataset.renderMs ?? NaN)")
                    report(page=page, load=load, shown_ms=shown,
                           draw_ms=draw if page == "map" and draw == draw else None)
                driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
                shot = f"{directory}/{page}.png"
                driver.save_screenshot(shot)
                report(screenshot=shot)
            # One node's page after its health check: the statistics, associations and health sections.
            driver.get(f"{base}/node/{node}")
            WebDriverWait(driver, 60, poll_frequency=0.05).until(
                lambda d: d.find_element(By.ID, "health-check").is_enabled())
            driver.find_element(By.ID, "health-check").click()
            WebDriverWait(driver, 120, poll_frequency=0.05).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "#node-health-results tr"))
            shot = f"{directory}/node-{node}.png"
            driver.save_screenshot(shot)
            report(screenshot=shot)
        except WebDriverException as error:
            report(problem=f"browser: {error.msg}")
        finally:
            driver.quit()
        """#
}
