// @ts-check
// The text that `koikoi replay FILE` prints, character for character: a table drawn
// the way the rich library draws it on a plain (uncoloured) console of a given width,
// then the totals line. The Python command builds a rich Table with six columns and
// prints it, so this follows rich's layout: each column measured (its longest word and
// its longest line, plus one space of padding each side), widths shrunk to the console
// when they do not fit (the widest columns first, then evenly), cells wrapped at word
// boundaries and cut with an ellipsis, headers aligned to the bottom of their row.
// Cells here are ASCII (numbers and yaku keys), so a character is one terminal cell.

const HEADERS = ["round", "winner", "points", "calls", "yaku (seat 0)", "yaku (seat 1)"];
const PAD = 1; // rich's default cell padding, left and right

/** A column's or a cell's [minimum, maximum] width. @typedef {[number, number]} Measurement */
/** A box's rule: [left, line, divider, right]. @typedef {readonly [string, string, string, string]} BoxRule */

// rich's HEAVY_HEAD box.
/** @type {{top: BoxRule, headRow: BoxRule, bottom: BoxRule, head: string, body: string}} */
const BOX = {
  top: ["┏", "━", "┳", "┓"],
  headRow: ["┡", "━", "╇", "┩"],
  bottom: ["└", "─", "┴", "┘"],
  head: "┃",
  body: "│",
};

/**
 * Python's round(): halves go to the even neighbour.
 * @param {number} x
 */
function roundHalfEven(x) {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** @param {readonly number[]} values */
function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * @param {Measurement} measurement
 * @returns {Measurement}
 */
function normalize([minimum, maximum]) {
  const low = Math.min(Math.max(0, minimum), maximum);
  return [Math.max(0, low), Math.max(0, Math.max(low, maximum))];
}

/**
 * @param {Measurement} measurement
 * @param {number} width
 * @returns {Measurement}
 */
function withMaximum([minimum, maximum], width) {
  return [Math.min(minimum, width), Math.min(maximum, width)];
}

/**
 * @param {string} text
 * @param {number} maxWidth
 * @returns {Measurement}
 */
function measureText(text, maxWidth) {
  if (maxWidth < 1) return [0, 0];
  const lines = text.split("\n").filter((line, i, all) => !(i === all.length - 1 && line === ""));
  const longest = lines.length ? Math.max(...lines.map((line) => line.length)) : 0;
  const words = text.split(/\s+/).filter((word) => word);
  const shortest = words.length ? Math.max(...words.map((word) => word.length)) : longest;
  const measured = withMaximum(normalize([shortest, longest]), maxWidth);
  return measured[1] < 1 ? [0, 0] : normalize(measured);
}

/**
 * A cell is its text inside padding of one space left and right.
 * @param {string} text
 * @param {number} maxWidth
 * @returns {Measurement}
 */
function measureCell(text, maxWidth) {
  if (maxWidth < 1) return [0, 0];
  /** @type {Measurement} */
  let measured;
  if (maxWidth - 2 * PAD < 1) measured = [maxWidth, maxWidth];
  else {
    const [low, high] = measureText(text, maxWidth);
    measured = withMaximum([low + 2 * PAD, high + 2 * PAD], maxWidth);
  }
  measured = withMaximum(normalize(measured), maxWidth);
  return measured[1] < 1 ? [0, 0] : normalize(measured);
}

/**
 * @param {readonly string[]} cells
 * @param {number} maxWidth
 * @returns {Measurement}
 */
function measureColumn(cells, maxWidth) {
  if (maxWidth < 1) return [0, 0];
  const measures = cells.map((cell) => measureCell(cell, maxWidth));
  const low = measures.length ? Math.max(...measures.map((m) => m[0])) : 1;
  const high = measures.length ? Math.max(...measures.map((m) => m[1])) : maxWidth;
  return withMaximum([low, high], maxWidth);
}

/**
 * @param {number} total
 * @param {readonly number[]} ratios
 * @param {readonly number[]} maximums
 * @param {readonly number[]} values
 * @returns {number[]}
 */
function ratioReduce(total, ratios, maximums, values) {
  const kept = ratios.map((ratio, i) => (maximums[i] ? ratio : 0));
  let totalRatio = sum(kept);
  if (!totalRatio) return values.slice();
  let remaining = total;
  return values.map((value, i) => {
    const ratio = kept[i];
    if (ratio && totalRatio > 0) {
      const distributed = Math.min(maximums[i], roundHalfEven((ratio * remaining) / totalRatio));
      remaining -= distributed;
      totalRatio -= ratio;
      return value - distributed;
    }
    return value;
  });
}

/**
 * @param {number[]} widths
 * @param {number} maxWidth
 * @returns {number[]}
 */
function collapseWidths(widths, maxWidth) {
  // Every column may wrap here (none has a fixed width or no_wrap).
  let total = sum(widths);
  let excess = total - maxWidth;
  while (total && excess > 0) {
    const widest = Math.max(...widths);
    const second = Math.max(...widths.map((w) => (w !== widest ? w : 0)));
    const difference = widest - second;
    const ratios = widths.map((w) => (w === widest ? 1 : 0));
    if (!ratios.some((r) => r) || !difference) break;
    const maxReduce = widths.map(() => Math.min(excess, difference));
    widths = ratioReduce(excess, ratios, maxReduce, widths);
    total = sum(widths);
    excess = total - maxWidth;
  }
  return widths;
}

/**
 * @param {readonly (readonly string[])[]} columns
 * @param {number} maxWidth
 * @returns {number[]}
 */
function columnWidths(columns, maxWidth) {
  let widths = columns.map((cells) => measureColumn(cells, maxWidth)[1] || 1);
  let tableWidth = sum(widths);
  if (tableWidth > maxWidth) {
    widths = collapseWidths(widths, maxWidth);
    tableWidth = sum(widths);
    // last resort, reduce columns evenly
    if (tableWidth > maxWidth) {
      widths = ratioReduce(tableWidth - maxWidth, widths.map(() => 1), widths, widths);
    }
    widths = columns.map((cells, i) => measureColumn(cells, widths[i])[1] || 0);
  }
  return widths;
}

// rich's divide_line: where to break a line so that it fits ``width`` (words longer
// than the width are not folded: the cell cuts them with an ellipsis).
/**
 * @param {string} text
 * @param {number} width
 * @param {boolean} fold
 * @returns {number[]}
 */
function breakOffsets(text, width, fold) {
  /** @type {number[]} */
  const breaks = [];
  let offset = 0;
  const word = /\s*\S+\s*/y;
  let position = 0;
  for (;;) {
    word.lastIndex = position;
    const match = word.exec(text);
    if (match === null) break;
    let start = match.index;
    const end = start + match[0].length;
    const length = match[0].trimEnd().length;
    if (width - offset >= length) {
      offset += match[0].length;
    } else if (length > width) {
      if (fold) {
        let rest = match[0];
        while (rest.length > width) {
          if (start) breaks.push(start);
          start += width;
          rest = rest.slice(width);
        }
        if (start) breaks.push(start);
        offset = rest.length;
      } else {
        if (start) breaks.push(start);
        offset = match[0].length;
      }
    } else if (offset && start) {
      breaks.push(start);
      offset = match[0].length;
    }
    position = end;
  }
  return breaks;
}

/**
 * @param {string} text
 * @param {readonly number[]} offsets
 * @returns {string[]}
 */
function divide(text, offsets) {
  const parts = [];
  let start = 0;
  for (const offset of offsets) {
    parts.push(text.slice(start, offset));
    start = offset;
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * @param {string} text
 * @param {number} size
 */
function rstripEnd(text, size) {
  if (text.length <= size) return text;
  const trailing = /\s+$/.exec(text);
  if (trailing === null) return text;
  return text.slice(0, text.length - Math.min(trailing[0].length, text.length - size));
}

/**
 * @param {string} text
 * @param {number} width
 * @param {"ellipsis" | "crop"} overflow
 * @param {boolean} pad
 */
function truncate(text, width, overflow, pad) {
  const length = text.length;
  if (length > width) {
    text = overflow === "ellipsis" ? text.slice(0, Math.max(0, width - 1)).padEnd(Math.max(0, width - 1)) + "…" : text.slice(0, width);
  }
  if (pad && length < width) text += " ".repeat(width - length);
  return text;
}

/**
 * A cell's lines at ``width`` (padding included); none when it has no room.
 * @param {string} text
 * @param {number} width
 * @returns {string[]}
 */
function cellLines(text, width) {
  const inner = width - 2 * PAD;
  if (width < 1 || inner < 1) return [];
  const lines = [];
  for (const line of text.split("\n")) {
    for (let part of divide(line, breakOffsets(line, inner, false))) {
      part = rstripEnd(part, inner);
      part = truncate(part, inner, "ellipsis", true);
      lines.push(" ".repeat(PAD) + truncate(part, inner, "ellipsis", false) + " ".repeat(PAD));
    }
  }
  return lines;
}

/**
 * @param {BoxRule} box
 * @param {readonly number[]} widths
 */
function rule([left, line, divider, right], widths) {
  return left + widths.map((w) => line.repeat(w)).join(divider) + right;
}

/**
 * @param {string} line
 * @param {number} width
 */
function crop(line, width) {
  return line.length > width ? line.slice(0, Math.max(0, width)) : line;
}

/**
 * The table of rows (lists of six strings) as rich prints it on a console this wide.
 * @param {readonly (readonly string[])[]} rows
 * @param {number} consoleWidth
 * @returns {string[]}
 */
export function renderTable(rows, consoleWidth) {
  const columns = HEADERS.map((header, i) => [header, ...rows.map((row) => row[i])]);
  const extra = HEADERS.length + 1; // the borders: two edges and a divider between columns
  const widths = columnWidths(columns, consoleWidth - extra);
  const out = [rule(BOX.top, widths)];
  [HEADERS, ...rows].forEach((row, index) => {
    const header = index === 0;
    const cells = row.map((text, i) => cellLines(text, widths[i]));
    const rowHeight = Math.max(...cells.map((lines) => lines.length));
    const height = Math.max(1, rowHeight);
    const shaped = cells.map((lines, i) => {
      const blank = " ".repeat(Math.max(0, widths[i]));
      const extraLines = rowHeight - lines.length;
      // Headers sit at the bottom of their row, other cells at the top.
      if (extraLines > 0) lines = header ? [...Array(extraLines).fill(blank), ...lines] : [...lines, ...Array(extraLines).fill(blank)];
      lines = lines.slice(0, height).map((line) => truncate(line, widths[i], "crop", true));
      while (lines.length < height) lines.push(blank);
      return lines;
    });
    const bar = header ? BOX.head : BOX.body;
    for (let n = 0; n < height; n++) out.push(bar + shaped.map((lines) => lines[n]).join(bar) + bar);
    if (header) out.push(rule(BOX.headRow, widths));
  });
  out.push(rule(BOX.bottom, widths));
  return out.map((line) => crop(line, consoleWidth));
}

/**
 * A line of text as console.print wraps it (words kept whole, long ones folded).
 * @param {string} text
 * @param {number} consoleWidth
 * @returns {string[]}
 */
export function renderLine(text, consoleWidth) {
  if (consoleWidth < 1) return [];
  return divide(text, breakOffsets(text, consoleWidth, true)).map((part) => crop(rstripEnd(part, consoleWidth), consoleWidth));
}

/**
 * Everything `koikoi replay FILE` prints for a replayed match and its output.
 * @param {import("../engine/match.js").Match} match
 * @param {import("../engine/record.js").ReplayOutput} output
 * @param {number} [consoleWidth]
 * @returns {string}
 */
export function replayText(match, output, consoleWidth = 80) {
  const rows = match.results.map((result, index) => [
    String(index + 1),
    result.winner === null ? "-" : String(result.winner),
    `${result.points[0]} : ${result.points[1]}`,
    `${result.calls[0]} : ${result.calls[1]}`,
    Object.entries(result.yaku[0]).map(([k, v]) => `${k} ${v}`).join(", "),
    Object.entries(result.yaku[1]).map(([k, v]) => `${k} ${v}`).join(", "),
  ]);
  const winner = output.winner === null ? "a tie" : `seat ${output.winner} wins`;
  const state = match.isOver ? "" : " (the record stops before the end)";
  const totals = `Totals ${output.totals[0]} : ${output.totals[1]}, ${winner}${state}`;
  return [...renderTable(rows, consoleWidth), ...renderLine(totals, consoleWidth)].map((line) => line + "\n").join("");
}
