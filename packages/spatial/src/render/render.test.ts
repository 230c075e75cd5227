import { crc32 as zlibCrc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Shape } from "../shape.js";
import { renderPng } from "./png.js";
import { crc32 } from "./png-encode.js";
import { PALETTE } from "./palette.js";
import { renderSvg } from "./svg.js";

const shapes: Shape[] = [
  { kind: "Circle", color: "Red", size: "Large", center: [-20, 20] },
  { kind: "Square", color: "Blue", size: "Large", center: [20, -20] },
  { kind: "Triangle", color: "Green", size: "Large", center: [0, 0] },
];

function decode(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let off = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.subarray(off + 4, off + 8).toString("ascii");
    const data = png.subarray(off + 8, off + 8 + len);
    expect(png.readUInt32BE(off + 8 + len)).toBe(crc32(png.subarray(off + 4, off + 8 + len)));
    if (type === "IHDR") [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixel = (x: number, y: number) => [...raw.subarray(y * (width * 3 + 1) + 1 + x * 3, y * (width * 3 + 1) + 1 + x * 3 + 3)];
  return { width, height, pixel };
}

describe("rendering", () => {
  it("crc32 matches zlib's", () => {
    const data = Buffer.from("yardstick spatial");
    expect(crc32(data)).toBe(zlibCrc32(data));
  });
  it("PNG: valid chunks, shapes where the canvas puts them (y up)", () => {
    const img = decode(renderPng(shapes, 256));
    expect([img.width, img.height]).toEqual([256, 256]);
    const at = (x: number, y: number) => img.pixel(Math.floor((x + 32) * 4), Math.floor((32 - y) * 4));
    expect(at(-20, 20)).toEqual([...PALETTE.Red]);
    expect(at(20, -20)).toEqual([...PALETTE.Blue]);
    expect(at(0, 0.5)).toEqual([...PALETTE.Green]);
    expect(at(1.8, 2)).toEqual([255, 255, 255]); // outside the triangle's slanted side
    expect(at(-20, -20)).toEqual([255, 255, 255]);
  });
  it("SVG names every shape and flips y", () => {
    const svg = renderSvg(shapes);
    expect(svg).toContain('<circle cx="12" cy="12" r="4"');
    expect(svg).toContain("<title>large blue square</title>");
    expect(svg.match(/<title>/g)).toHaveLength(3);
  });
});
