// png.mjs: a small PNG decoder for the browser tests, so they can read the
// pixels of playwright's screenshots (which are PNG buffers).
//
// Does: decodePng(buffer) -> { width, height, rgba } (Uint8Array, 4 bytes a
// pixel, rows top to bottom) for non-interlaced 8-bit truecolour PNGs with or
// without alpha (colour types 2 and 6: what Chromium writes), checking the
// signature, the chunk order and the five row filters; inflate is node's zlib.
// Does not: read palettes, greyscale, 16-bit or interlaced images, or check
// CRCs (a corrupt image fails in inflate or in the size check); it throws a
// message naming what it does not read.
import { inflateSync } from 'node:zlib';

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

export function decodePng(buffer) {
  const b = Buffer.from(buffer);
  if (b.length < 8 || SIGNATURE.some((v, i) => b[i] !== v)) throw new Error('not a PNG (signature)');
  let at = 8, header = null;
  const idat = [];
  while (at + 8 <= b.length) {
    const length = b.readUInt32BE(at), type = b.toString('latin1', at + 4, at + 8);
    const data = b.subarray(at + 8, at + 8 + length);
    at += 12 + length;  // length, type, data, CRC
    if (type === 'IHDR') {
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), depth: data[8], colour: data[9], interlace: data[12] };
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
  }
  if (!header) throw new Error('PNG without IHDR');
  const { width, height, depth, colour, interlace } = header;
  if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
    throw new Error(`PNG not read here: bit depth ${depth}, colour type ${colour}, interlace ${interlace} (8-bit RGB/RGBA only)`);
  }
  const channels = colour === 6 ? 4 : 3;
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== height * (stride + 1)) throw new Error(`PNG data is ${raw.length} bytes, not ${height * (stride + 1)}`);

  // Undo the row filters (PNG spec, section 9): each row starts with its filter type.
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? row[x - channels] : 0, c = x >= channels ? up[x - channels] : 0, u = up[x];
      let p;
      switch (filter) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = u; break;
        case 3: p = (a + u) >> 1; break;
        case 4: {
          const e = a + u - c, pa = Math.abs(e - a), pb = Math.abs(e - u), pc = Math.abs(e - c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? u : c;
          break;
        }
        default: throw new Error(`PNG row ${y}: unknown filter ${filter}`);
      }
      row[x] = (src[x] + p) & 255;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < pixels.length; i += 3, j += 4) {
    rgba[j] = pixels[i]; rgba[j + 1] = pixels[i + 1]; rgba[j + 2] = pixels[i + 2]; rgba[j + 3] = 255;
  }
  return { width, height, rgba };
}
