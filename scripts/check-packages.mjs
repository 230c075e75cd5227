#!/usr/bin/env node
// Usage: node scripts/check-packages.mjs [packages/NAME ...]   (default: every publishable workspace)
// Checks what a user gets from `npm install`: each workspace package that is not private is packed
// once (`npm pack`, lifecycle scripts included) and its tarball is checked by
//   - publint (errors and warnings fail; suggestions are printed),
//   - @arethetypeswrong with the rules of `attw --pack --profile esm-only` (node10 and CJS `require`
//     resolutions are not checked: the packages are ESM-only),
//   - the tarball holding LICENSE (the root LICENSE's text), README.md, every file a README's
//     relative Markdown link points to, and each bin with a `#!/usr/bin/env node` line.
// One `npm pack` for all packages and both checkers in this process keep it to seconds; running the
// `attw` and `publint` commands per package costs about 9 s each. Prints one line per package and
// exits non-zero when any package has a problem. scripts/check-packages.test.mjs runs the same checks
// as one vitest test per package, so `npm test` counts them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// What `attw --profile esm-only` leaves out (profiles.js of @arethetypeswrong/cli).
const esmOnlyIgnoredResolutions = new Set(["node10", "node16-cjs"]);

/** Workspace folders (relative to the root) whose package.json is not private, sorted. */
export function publishableWorkspaces() {
  const dirs = [];
  for (const folder of ["packages", "examples"]) {
    if (!existsSync(join(root, folder))) continue;
    for (const name of readdirSync(join(root, folder)).sort()) {
      const pkgPath = join(root, folder, name, "package.json");
      if (!existsSync(pkgPath)) continue;
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
      if (!pkg.private) dirs.push(`${folder}/${name}`);
    }
  }
  return dirs;
}

/** Runs `npm pack --json` in `cwd` with `extraArgs`, writing into `dest`; npm's JSON report. */
export function npmPack(cwd, dest, extraArgs = []) {
  const args = ["pack", "--json", "--pack-destination", dest, ...extraArgs];
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    throw new Error(`npm ${args.join(" ")} in ${cwd} failed (exit ${r.status}):\n${r.stderr}`);
  }
  return JSON.parse(r.stdout);
}

/** Packs the workspaces with one `npm pack` into a new temp folder: [{ dir, name, tarball }]. */
export function packWorkspaces(dirs) {
  const dest = mkdtempSync(join(tmpdir(), "yardstick-pack-"));
  const packed = npmPack(root, dest, dirs.flatMap((d) => ["-w", d]));
  const byName = new Map(packed.map((p) => [p.name, p]));
  const packs = dirs.map((dir) => {
    const name = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")).name;
    const p = byName.get(name);
    if (!p) throw new Error(`npm pack printed no tarball for ${name} (${dir})`);
    return { dir, name, tarball: join(dest, p.filename) };
  });
  return { dest, packs };
}

/** Relative link targets of a Markdown text: inline links and images, and reference definitions. */
export function relativeLinks(markdown) {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const targets = [];
  for (const m of withoutCode.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
  for (const m of withoutCode.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/gm)) targets.push(m[1]);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith("#") && !t.startsWith("/"));
}

/** Problems (one line each) of one packed package; [] when it is fine. */
export async function checkTarball({ dir, tarball }) {
  const problems = [];
  const data = new Uint8Array(readFileSync(tarball));

  const lint = await publint({ pack: { tarball: data.buffer }, level: "suggestion" });
  for (const message of lint.messages) {
    const text = `publint ${message.type}: ${formatMessage(message, lint.pkg, { color: false }) ?? message.code}`;
    if (message.type === "suggestion") console.log(`  (${dir}) ${text}`);
    else problems.push(text);
  }

  const pkg = createPackageFromTarballData(data);
  const base = `/node_modules/${pkg.packageName}`;
  const analysis = await checkPackage(pkg);
  if (analysis.types) {
    for (const p of analysis.problems) {
      if ("resolutionKind" in p && esmOnlyIgnoredResolutions.has(p.resolutionKind)) continue;
      const where = "entrypoint" in p ? ` at "${p.entrypoint}" (${p.resolutionKind})` : "";
      const file = (p.fileName ?? p.typesFileName ?? "").replace(`${base}/`, "");
      problems.push(`attw ${p.kind}${where}${file ? ` in ${file}` : ""}`);
    }
  } else {
    problems.push("attw: the package ships no type declarations");
  }

  const packed = new Set(pkg.listFiles().map((f) => f.slice(base.length + 1)));
  const read = (file) => pkg.readFile(`${base}/${file}`);

  if (!packed.has("LICENSE")) problems.push("no LICENSE in the tarball");
  else if (read("LICENSE") !== readFileSync(join(root, "LICENSE"), "utf8")) {
    problems.push("LICENSE differs from the repository's LICENSE");
  }
  if (!packed.has("README.md")) problems.push("no README.md in the tarball");
  for (const readme of [...packed].filter((f) => /(^|\/)README[^/]*\.md$/i.test(f)).sort()) {
    for (const target of relativeLinks(read(readme))) {
      const file = posix.normalize(posix.join(posix.dirname(readme), decodeURI(target.split("#")[0])));
      const isDir = [...packed].some((f) => f.startsWith(`${file.replace(/\/$/, "")}/`));
      if (!packed.has(file) && !isDir) problems.push(`${readme} links to ${target}, which is not in the tarball`);
    }
  }
  const manifest = JSON.parse(read("package.json"));
  const bins = typeof manifest.bin === "string" ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  for (const [bin, target] of Object.entries(bins)) {
    const file = posix.normalize(target);
    if (!packed.has(file)) problems.push(`bin ${bin}: ${target} is not in the tarball`);
    else if (!read(file).startsWith("#!/usr/bin/env node\n")) problems.push(`bin ${bin}: ${target} has no "#!/usr/bin/env node" line`);
  }
  return problems;
}

async function main() {
  const wanted = process.argv.slice(2).map((d) => relative(root, join(process.cwd(), d)).replace(/\\/g, "/"));
  const dirs = wanted.length > 0 ? wanted : publishableWorkspaces();
  const { dest, packs } = packWorkspaces(dirs);
  let failed = 0;
  try {
    for (const pack of packs) {
      const problems = await checkTarball(pack);
      console.log(`${problems.length === 0 ? "ok  " : "FAIL"} ${pack.name} (${pack.dir})`);
      for (const p of problems) console.log(`     ${p}`);
      if (problems.length > 0) failed++;
    }
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
  console.log(`${packs.length - failed} packages fine, ${failed} with problems`);
  process.exit(failed === 0 ? 0 : 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
