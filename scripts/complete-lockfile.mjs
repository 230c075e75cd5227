// Usage: node scripts/complete-lockfile.mjs [--check] [package-lock.json]. Run it after `npm install` changes the lockfile.
// npm records an optional platform binary (biome, turbo) only when the registry it resolved against
// has that version for that platform; a mirror holding only Linux builds leaves the others out and
// `npm ci` then refuses the lockfile as out of sync. The entries added here are what npm itself
// writes for them (version, os, cpu, libc, optional); npm skips them on other platforms.
import fs from "node:fs";
// With --check it writes nothing and exits 1 when entries are missing.
const check = process.argv.includes("--check");
const file = process.argv.slice(2).find((a) => a !== "--check") ?? "package-lock.json";
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const platform = (name) => {
  const m = name.match(/(android|darwin|linux|win32|windows)-(arm64|x64|64)(-musl)?$/);
  if (!m) return undefined;
  const os = m[1] === "windows" ? "win32" : m[1];
  const cpu = m[2] === "64" ? "x64" : m[2];
  return { os, cpu, musl: Boolean(m[3]) };
};
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (lock.packages[key]) continue;
    const p = platform(dep);
    if (!p) continue;
    lock.packages[key] = { version, cpu: [p.cpu], ...(entry.dev ? { dev: true } : {}), ...(p.musl ? { libc: ["musl"] } : p.os === "linux" ? { libc: ["glibc"] } : {}), license: entry.license, optional: true, os: [p.os] };
    added++;
    console.log(`${check ? "missing" : "added"} ${key}@${version}`);
  }
}
if (check) {
  console.log(added === 0 ? "the lockfile lists every platform binary" : `${added} entries missing: run node scripts/complete-lockfile.mjs`);
  process.exit(added === 0 ? 0 : 1);
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} entries added`);
