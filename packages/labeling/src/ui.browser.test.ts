import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLabelingServer, type LabelingServer } from "./server.js";
import { corpusDataDir, FIXTURES } from "./test-helpers.js";

// Debian's Chromium, installed by scripts/setup.mjs. Screenshots go to a git-ignored folder to be looked at.
const CHROMIUM = "/usr/bin/chromium";
const screenshots = join(dirname(fileURLToPath(import.meta.url)), "..", "screenshots");
const HOSTILE = `<img src=x onerror="window.__owned=1"><script>window.__owned=2</script><b>bold?</b>`;
let browser: Browser;
let server: LabelingServer;
let base: string;
let dir: string;

function addHostileTask(): void {
  const meta = { total_samples: 1, sample_type: "chat_completion", samples_per_line: 1, hidden_metadata: ["secret_model"] };
  const sample = {
    type: "chat_completion",
    id: "h1",
    metadata: { secret_model: "gpt-x", source: HOSTILE },
    prompt: [
      { role: "system", content: "Be nice." },
      { role: "user", content: HOSTILE },
    ],
    completion: [{ role: "assistant", content: `Sure: ${HOSTILE}` }],
  };
  writeFileSync(join(dir, "datasets", "hostile.jsonl"), `${JSON.stringify(meta)}\n${JSON.stringify([sample])}\n`);
  writeFileSync(
    join(dir, "tasks", "hostile.json"),
    JSON.stringify({
      taskInfo: { name: `Hostile ${HOSTILE}`, description: HOSTILE, instructions: HOSTILE },
      presentation: { type: "single", displayType: "standard" },
      feedback: { ok: { type: "select", description: HOSTILE, options: [{ label: HOSTILE, value: "x" }] } },
      dataset: "hostile.jsonl",
      results: "hostile.jsonl",
    }),
  );
}

/** A task whose question is a rubric.yaml (the one LLM judges read): its choices are the select options. */
function addRubricTask(): void {
  const meta = { total_samples: 1, sample_type: "text_completion", samples_per_line: 1 };
  const sample = { type: "text_completion", id: "r1", prompt: "What is 2 + 2?", completion: "4." };
  writeFileSync(join(dir, "datasets", "rubric.jsonl"), `${JSON.stringify(meta)}\n${JSON.stringify([sample])}\n`);
  copyFileSync(join(FIXTURES, "rubric", "helpfulness.yaml"), join(dir, "tasks", "helpfulness.yaml"));
  writeFileSync(
    join(dir, "tasks", "rubric_task.json"),
    JSON.stringify({
      taskInfo: { name: "Rubric task", description: "d", instructions: "i" },
      presentation: { type: "single", displayType: "standard" },
      rubric: "helpfulness.yaml",
      dataset: "rubric.jsonl",
      results: "rubric_results.jsonl",
    }),
  );
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run "node scripts/setup.mjs" (it installs Debian's chromium)`);
  mkdirSync(screenshots, { recursive: true });
  dir = corpusDataDir();
  addHostileTask();
  addRubricTask();
  server = createLabelingServer({ dataDir: dir, adminToken: "browser-admin-token-1234" });
  base = await server.listen(0, "127.0.0.1");
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signedIn(name: string, width = 1280): Promise<{ page: Page; problems: string[] }> {
  const token = server.store.addLabeler(name);
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  await page.goto(`${base}/`);
  await page.getByLabel("Access token").fill("wrong-token-123456");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect.poll(() => page.locator("#sign-in-error").textContent()).toBe("That token is not valid.");
  problems.length = 0; // the 401 of the wrong token is logged by the browser on purpose
  await page.getByLabel("Access token").fill(token);
  await page.keyboard.press("Enter");
  await page.locator("#who").filter({ hasText: `Signed in as ${name}` }).waitFor();
  // Signed in: the sign-in form and its error are gone from the page a person sees.
  expect(await page.locator("#sign-in").isVisible()).toBe(false);
  return { page, problems };
}

async function openTask(page: Page, task: string): Promise<number> {
  await page.getByLabel("Task", { exact: true }).selectOption(task);
  await page.locator(`#task-title`).filter({ hasText: server.folder.tasks.get(task)?.def.taskInfo.name ?? "" }).waitFor();
  return Number(await page.locator(".samples").getAttribute("data-line"));
}

const results = (file: string) =>
  readFileSync(join(dir, "results", file), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));

async function savedLine(page: Page, line: number): Promise<void> {
  await page.locator("#status").filter({ hasText: `Saved line ${line}.` }).waitFor();
}

describe("labeling UI in Chromium", () => {
  it("labels a comparison sample: scale and select by keyboard, comment by mouse", async () => {
    const { page, problems } = await signedIn("kim");
    const line = await openTask(page, "comparison_task");
    // every feedback control is visible and labelled
    for (const name of ["Overall Quality", "Preferred Response", "Additional Comments"]) {
      await expect.poll(() => page.locator("legend", { hasText: name }).isVisible()).toBe(true);
    }
    expect(await page.getByLabel("Overall Quality").isVisible()).toBe(true);
    expect(await page.locator(".sample").count()).toBe(2);
    expect(await page.locator(".sample").first().locator(".msg.system .role").textContent()).toBe("system");
    expect(await page.locator(".sample").first().locator(".divider").textContent()).toBe("COMPLETION");
    await page.getByLabel("Overall Quality").focus();
    await page.keyboard.press("4");
    expect(await page.locator("output").first().textContent()).toBe("4");
    await page.keyboard.press("Tab");
    await page.keyboard.press("2");
    expect(await page.getByLabel("Response 2 [2]").isChecked()).toBe(true);
    await page.getByLabel("Additional Comments").click();
    await page.keyboard.type("B is <b>clearer</b>");
    await page.screenshot({ path: join(screenshots, "comparison.png"), fullPage: true });
    await page.getByRole("button", { name: "Submit" }).click();
    await savedLine(page, line);
    const [stored] = results("comparison_results.jsonl");
    expect(stored).toMatchObject({ labeler: "kim", line, feedback: { overall_quality: 4, preferred_response: "2", comments: "B is <b>clearer</b>" } });
    expect(await page.locator("#progress").textContent()).toContain("You: 1 labeled, 0 skipped.");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("labels a single sample with the mouse and Enter; skips and undoes by keyboard", async () => {
    const { page, problems } = await signedIn("lee");
    const line = await openTask(page, "single_task");
    expect(await page.locator(".samples.single .prompt").isVisible()).toBe(true);
    await page.keyboard.press("s");
    await page.locator("#status").filter({ hasText: `Skipped line ${line}.` }).waitFor();
    expect(Number(await page.locator(".samples").getAttribute("data-line"))).not.toBe(line);
    await page.keyboard.press("u");
    await page.locator("#status").filter({ hasText: `Reopened line ${line}.` }).waitFor();
    await page.getByLabel("Grammar").click();
    await page.getByLabel("Off-topic").click();
    await page.getByLabel("Accuracy").focus();
    await page.keyboard.press("5");
    await page.keyboard.press("Enter");
    await savedLine(page, line);
    const [stored] = results("single_results.jsonl");
    expect(stored).toMatchObject({ labeler: "lee", line, feedback: { clarity: 1, accuracy: 5, issues: ["grammar", "off_topic"] } });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("ranks stacked samples and refuses a blank required text like the server does", async () => {
    const { page, problems } = await signedIn("max", 390);
    const line = await openTask(page, "stacked_task");
    expect(await page.locator(".samples.stacked .sample").count()).toBe(3);
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await page.locator("#form-errors").textContent()).toBe("Please answer: Best Aspects: required");
    await page.getByRole("button", { name: "Move Response 3 up" }).click();
    await page.keyboard.press("Enter"); // focus stays on the moved item's button: move it up again
    expect(await page.locator(".ranking li").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-value")))).toEqual(["3", "1", "2"]);
    // drag and drop with the mouse: "2" (last) onto the first place, then back
    await page.locator('.ranking li[data-value="2"]').dragTo(page.locator('.ranking li[data-value="3"]'));
    expect(await page.locator(".ranking li").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-value")))).toEqual(["2", "3", "1"]);
    await page.locator('.ranking li[data-value="2"]').dragTo(page.locator('.ranking li[data-value="1"]'));
    expect(await page.locator(".ranking li").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-value")))).toEqual(["3", "1", "2"]);
    await page.getByLabel("Best Aspects").fill("concise");
    // phone width: nothing overflows sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: join(screenshots, "stacked-narrow.png"), fullPage: true });
    await page.getByRole("button", { name: "Submit" }).click();
    await savedLine(page, line);
    expect(results("stacked_results.jsonl")[0]).toMatchObject({ labeler: "max", feedback: { ranking: ["3", "1", "2"], best_aspects: "concise" } });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("labels a dclm_slop pair on its 1-7 scale with the keyboard", async () => {
    const { page, problems } = await signedIn("ola");
    const line = await openTask(page, "dclm_slop");
    expect(await page.locator(".samples.side-by-side .sample").count()).toBe(2);
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is what a person sees
    expect(await page.locator(".scale").innerText()).toMatch(/A is better[\s\S]*B is better[\s\S]*Value:\s*4/);
    expect(await page.locator(".sample dt").first().textContent()).toBe("url");
    await page.getByLabel("Slop?").focus();
    await page.keyboard.press("6");
    await page.keyboard.press("Enter");
    await savedLine(page, line);
    expect(results("dclm_slop_results.jsonl")[0]).toMatchObject({ labeler: "ola", line, feedback: { slop_comparison: 6 } });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows a rubric's question and choices and answers it by keyboard", async () => {
    const { page, problems } = await signedIn("rui");
    const line = await openTask(page, "rubric_task");
    await expect.poll(() => page.locator("legend", { hasText: "Does the response answer the user's question?" }).isVisible()).toBe(true);
    expect(await page.getByText("Judge only whether the question is answered, not the style.").isVisible()).toBe(true);
    for (const option of ["unhelpful: ignores or misreads the question [1]", "partial: answers part of it [2]", "helpful: answers it fully [3]"]) {
      expect(await page.getByLabel(option).isVisible()).toBe(true);
    }
    await page.getByLabel("partial: answers part of it [2]").focus();
    await page.keyboard.press("3");
    expect(await page.getByLabel("helpful: answers it fully [3]").isChecked()).toBe(true);
    await page.screenshot({ path: join(screenshots, "rubric.png"), fullPage: true });
    await page.keyboard.press("Enter");
    await savedLine(page, line);
    expect(results("rubric_results.jsonl")[0]).toMatchObject({ labeler: "rui", line, feedback: { rubric: "helpful" } });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the admin progress per labeler and exports CSV", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await page.goto(`${base}/`);
    await page.getByLabel("Access token").fill("browser-admin-token-1234");
    await page.keyboard.press("Enter");
    await page.locator("#who").filter({ hasText: "Signed in as admin" }).waitFor();
    await page.getByLabel("Task", { exact: true }).selectOption("comparison_task");
    await page.locator("table").filter({ hasText: "kim" }).waitFor();
    expect(await page.locator("tbody tr").first().locator("td").allTextContents()).toEqual(["kim", "1", "0"]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("comparison_task-labels.csv");
    const path = join(screenshots, "export.csv");
    await download.saveAs(path);
    expect(readFileSync(path, "utf8")).toContain("kim");
    await page.close();
  });

  it("shows hostile markup in samples, task text and options as text, and hides hidden_metadata", async () => {
    const { page, problems } = await signedIn("nia");
    await openTask(page, "hostile");
    const sample = page.locator(".sample");
    expect(await sample.locator("img, script, b").count()).toBe(0);
    expect(await page.locator("main img, main b").count()).toBe(0);
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is what a person sees
    expect(await sample.innerText()).toContain(HOSTILE);
    expect(await page.locator("#task-title").textContent()).toBe(`Hostile ${HOSTILE}`);
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is what a person sees
    expect(await sample.innerText()).not.toContain("gpt-x");
    expect(await sample.locator("dt").allTextContents()).toEqual(["source"]);
    expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
    await page.screenshot({ path: join(screenshots, "hostile.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
