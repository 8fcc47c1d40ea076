// offline.js on the home page's save-offline control (as built): nothing is fetched or registered
// before the reader asks, the control shows the size, the download's progress and the result, a
// reader who saved the guide keeps getting its updates, and a new version offers a refresh.
// The service worker, the caches and workbox-window are stand-ins: the browser tests save the
// real copy and go offline with it (tests/test_study.py).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { click, leavePage } from "./page.js";
import { loadScript } from "./load.js";

const FIXTURE = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "fixtures", "offline.html"), "utf8");
const SUMMARY = { count: 4, size: 78.9e6 };

let world;
const label = () => document.querySelector(".guide-offline__label").textContent;
const bar = () => document.querySelector("progress.guide-offline__progress");
const button = () => document.querySelector("[data-offline-save]");
const settle = async () => { for (let i = 0; i < 20; i++) await new Promise((done) => setTimeout(done, 0)); };

// A browser with a service worker: `registered` whether this site has one already; the precache
// fills with `cachedFiles` files; `workbox` as workbox-window's UMD build defines it.
function browser({ registered = false, summary = SUMMARY, support = true } = {}) {
  world = { registered: [], listeners: {}, cachedFiles: 0, skipped: 0, fetched: [] };
  let ready;
  world.ready = new Promise((done) => { ready = done; });
  world.finish = ready;
  const serviceWorker = {
    getRegistration: vi.fn(async () => (registered ? { scope: "/" } : undefined)),
    ready: world.ready,
  };
  if (support) Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: serviceWorker });
  vi.stubGlobal("caches", support ? {
    keys: async () => ["workbox-runtime", "rl-interview-guide-precache-v2-http://localhost/"],
    open: async () => ({ keys: async () => new Array(world.cachedFiles) }),
  } : undefined);
  window.workbox = {
    Workbox: class {
      constructor(url, options) { world.registered.push({ url, options }); }
      addEventListener(type, listener) { world.listeners[type] = listener; }
      register() { return Promise.resolve({ scope: "/" }); }
      messageSkipWaiting() { world.skipped += 1; }
    },
  };
  vi.stubGlobal("fetch", vi.fn(async (url, options) => {
    world.fetched.push([url, options]);
    if (summary === "offline") throw new TypeError("Failed to fetch");
    return { ok: true, json: async () => summary };
  }));
  document.body.innerHTML = FIXTURE;
}

beforeEach(() => { vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] }); });

afterEach(() => {
  leavePage();
  delete navigator.serviceWorker;
  delete window.workbox;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("before the reader asks", () => {
  test("the control shows how much there is to save; nothing is registered", async () => {
    browser();
    loadScript("offline.js");
    await settle();
    expect(label()).toBe("离线保存整个指南（约 79 MB）");
    expect(world.fetched).toEqual([["http://localhost/offline.json", { cache: "no-cache" }]]);
    expect(world.registered).toEqual([]);
    expect(JSON.parse(localStorage.getItem("guide-offline-summary"))).toEqual(SUMMARY);
  });

  test("a small copy's size has a decimal; offline, the size last read is shown", async () => {
    browser({ summary: { count: 2, size: 4.26e6 } });
    loadScript("offline.js");
    await settle();
    expect(label()).toBe("离线保存整个指南（约 4.3 MB）");
    document.body.innerHTML = FIXTURE;
    browser({ summary: "offline" });
    localStorage.setItem("guide-offline-summary", JSON.stringify({ count: 2, size: 12.4e6 }));
    loadScript("offline.js");
    await settle();
    expect(label()).toBe("离线保存整个指南（约 12 MB）");
  });

  test("a browser without service workers says it cannot save, and the control is disabled", async () => {
    browser({ support: false });
    loadScript("offline.js");
    await settle();
    expect(label()).toBe("这个浏览器不支持离线保存");
    expect(button().disabled).toBe(true);
    expect(world.fetched).toEqual([]);
  });
});

describe("saving", () => {
  test("registers this build's worker for the whole site, shows the download's progress, then what was saved", async () => {
    browser();
    loadScript("offline.js");
    await settle();
    click(button());
    expect(button().disabled).toBe(true);
    await settle();
    expect(world.registered).toEqual([{ url: "http://localhost/sw.js", options: { scope: "/" } }]);
    world.cachedFiles = 1;
    vi.advanceTimersByTime(500);
    await settle();
    expect(label()).toBe("正在下载：25%（共 79 MB）");
    expect(bar().hidden).toBe(false);
    expect(bar().value).toBe(0.25);
    world.cachedFiles = 9;  // more than the summary counted: never over 100 %
    vi.advanceTimersByTime(500);
    await settle();
    expect(label()).toBe("正在下载：100%（共 79 MB）");
    world.finish();
    await settle();
    expect(label()).toBe("已离线保存（79 MB）：断网也能看全部页面、搜索和速查表");
    expect(bar().hidden).toBe(true);
    expect(document.documentElement.dataset.offline).toBe("saved");
    expect(button().disabled).toBe(false);
    world.cachedFiles = 0;
    vi.advanceTimersByTime(1500);  // the progress stopped with the download
    await settle();
    expect(label()).toBe("已离线保存（79 MB）：断网也能看全部页面、搜索和速查表");
    delete document.documentElement.dataset.offline;
  });

  test("a failure is reported on the control, which can be pressed again", async () => {
    browser();
    window.workbox.Workbox.prototype.register = () => Promise.reject(new Error("quota exceeded"));
    loadScript("offline.js");
    await settle();
    click(button());
    await settle();
    expect(label()).toBe("离线保存失败：quota exceeded");
    expect(button().disabled).toBe(false);
  });
});

describe("after saving", () => {
  test("every page registers again, so the copy follows new builds, and a new version offers a refresh", async () => {
    browser({ registered: true });
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, href: window.location.href, reload });
    loadScript("offline.js");
    await settle();
    expect(world.registered).toEqual([{ url: "http://localhost/sw.js", options: { scope: "/" } }]);
    world.listeners.waiting();
    world.listeners.waiting();  // one banner, however often
    const banners = document.querySelectorAll(".guide-update");
    expect(banners).toHaveLength(1);
    expect(banners[0].getAttribute("role")).toBe("status");
    expect(banners[0].textContent).toBe("指南有新版本，离线副本已更新好。刷新使用新版本");
    click(banners[0].querySelector("button"));
    expect(world.skipped).toBe(1);
    world.listeners.controlling();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
