// `npm test` runs the package checks of check-packages.mjs as one test per publishable package,
// plus one on a deliberately broken package to show the checks do find problems, and installs the
// tarballs in an empty project to run the CLI there.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkTarball, npmPack, packWorkspaces, publishableWorkspaces, relativeLinks, root } from "./check-packages.mjs";

const dirs = publishableWorkspaces();
let packed;

beforeAll(() => {
  packed = packWorkspaces(dirs);
}, 120_000);

afterAll(() => {
  if (packed) rmSync(packed.dest, { recursive: true, force: true });
});

it("finds the publishable packages", () => {
  expect(dirs).toContain("packages/runner");
  expect(dirs).toContain("packages/core");
  expect(dirs.some((d) => d.startsWith("examples/"))).toBe(false);
});

it.each(dirs)("%s: publint, attw (esm-only), LICENSE, README links and bins", async (dir) => {
  const pack = packed.packs.find((p) => p.dir === dir);
  expect(await checkTarball(pack)).toEqual([]);
});

// What a user gets from `npm install` of the tarballs in an empty project outside the repository.
// Install scripts are skipped so better-sqlite3 is not compiled (minutes where no prebuilt binary
// can be fetched); the run below uses --no-cache, which opens no SQLite database.
it("the CLI installed from the tarballs runs outside the repository", () => {
  const project = mkdtempSync(join(tmpdir(), "yardstick-user-"));
  try {
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "yardstick-user", private: true }));
    const tarballs = packed.packs.map((p) => p.tarball);
    const flags = ["--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
    const install = spawnSync("npm", ["install", ...flags, ...tarballs], { cwd: project, encoding: "utf8" });
    expect(install.stderr.split("\n").filter((l) => l.startsWith("npm error"))).toEqual([]);
    expect(install.status).toBe(0);

    const yardstick = (...args) => spawnSync(join(project, "node_modules/.bin/yardstick"), args, { cwd: project, encoding: "utf8" });
    const runnerVersion = JSON.parse(readFileSync(join(root, "packages/runner/package.json"), "utf8")).version;
    expect(yardstick("--version").stdout.trim()).toBe(runnerVersion);
    const help = yardstick("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("usage: yardstick <command>");

    cpSync(join(root, "examples/quickstart/tasks"), join(project, "tasks"), { recursive: true });
    const run = yardstick("run", "tasks", "--model", "baseline:majority", "--no-cache", "--out", "runs/majority");
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(project, "runs/majority/results.json"))).toBe(true);
    expect(existsSync(join(project, "runs/majority/report.html"))).toBe(true);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}, 240_000);

it("reports the problems of a broken package", async () => {
  const folder = mkdtempSync(join(tmpdir(), "yardstick-broken-pkg-"));
  try {
    mkdirSync(join(folder, "src", "dist"), { recursive: true });
    const pkg = join(folder, "src");
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({
        name: "broken-fixture",
        version: "1.0.0",
        license: "Apache-2.0",
        type: "module",
        exports: {
          // publint: "types" must come first and name a file that exists.
          ".": { default: "./dist/index.js", types: "./dist/missing.d.ts" },
          // attw: CommonJS types (.d.cts) for an ES module.
          "./extra": { types: "./dist/extra.d.cts", default: "./dist/extra.js" },
        },
        files: ["dist"],
        bin: { broken: "./dist/index.js" },
      }),
    );
    writeFileSync(join(pkg, "dist", "index.js"), "export const x = 1;\n");
    writeFileSync(join(pkg, "dist", "extra.js"), "export const y = 2;\n");
    writeFileSync(join(pkg, "dist", "extra.d.cts"), "export declare const y: number;\n");
    writeFileSync(join(pkg, "README.md"), "# broken\n\nSee [the guide](docs/guide.md) and [upstream](https://example.org/x).\n");
    const [report] = npmPack(pkg, folder);
    const problems = await checkTarball({ dir: pkg, tarball: join(folder, report.filename) });
    const text = problems.join("\n");
    expect(text).toMatch(/publint (error|warning):/);
    expect(problems).toContain('attw UntypedResolution at "." (node16-esm)');
    expect(problems).toContain("attw FalseCJS in dist/extra.d.cts");
    expect(problems).toContain("no LICENSE in the tarball");
    expect(problems).toContain("README.md links to docs/guide.md, which is not in the tarball");
    expect(problems).toContain('bin broken: ./dist/index.js has no "#!/usr/bin/env node" line');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

it("reads relative links from Markdown, leaving out URLs, anchors and code", () => {
  const md = [
    "[a](docs/a.md) ![img](shots/x.png \"title\") [web](https://x.org/y) [anchor](#usage)",
    "`[not](code.md)`",
    "```",
    "[fenced](fenced.md)",
    "```",
    "[ref]: ../up.md",
  ].join("\n");
  expect(relativeLinks(md)).toEqual(["docs/a.md", "shots/x.png", "../up.md"]);
});
