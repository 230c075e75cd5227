/**
 * A small evaluator for the answers math benchmarks use: numbers (with thousands separators),
 * + − × ÷ ^, parentheses, \frac, \sqrt, \pi, percentages, degrees and implicit multiplication.
 * Anything else (variables, matrices, intervals) is left to string comparison.
 */

/** Strips LaTeX presentation noise so equivalent spellings compare equal as strings. */
export function canonicalLatex(expr: string): string {
  let s = expr;
  s = s.replace(/\\(?:text|textbf|mathrm|mathbf|mbox)\s*\{([^{}]*)\}/g, "$1");
  s = s.replace(/\\(?:left|right|displaystyle|!|,|;|:|quad|qquad)/g, "");
  s = s.replace(/\\ /g, "");
  s = s.replace(/\\[dt]frac/g, "\\frac");
  s = s.replace(/\\frac\s*(\d)\s*(\d)/g, "\\frac{$1}{$2}");
  s = s.replace(/\^\s*\{?\\circ\}?|°/g, "");
  s = s.replace(/\\?%/g, "");
  s = s.replace(/\$/g, "");
  s = s.replace(/\s+/g, "");
  s = s.replace(/\.$/, "");
  // "x=5" or "y = 3" answers compare by their right-hand side.
  s = s.replace(/^[a-zA-Z](?:_\{?\w+\}?)?=(?!=)/, "");
  // Thousands separators: only digit groups of exactly three.
  s = s.replace(/\d{1,3}(?:,\d{3})+(?!\d)/g, (m) => m.replace(/,/g, ""));
  return s;
}

type Tok = { t: "num"; v: number } | { t: "op"; v: string } | { t: "cmd"; v: string };

function tokenize(s: string): Tok[] | undefined {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    const num = /^(?:\d+\.?\d*|\.\d+)/.exec(s.slice(i));
    if (num) {
      out.push({ t: "num", v: Number(num[0]) });
      i += num[0].length;
    } else if ("+-*/^(){}[]".includes(ch)) {
      out.push({ t: "op", v: ch });
      i++;
    } else if (ch === "\\") {
      const cmd = /^\\([a-zA-Z]+)/.exec(s.slice(i));
      if (!cmd) return undefined;
      out.push({ t: "cmd", v: cmd[1]! });
      i += cmd[0].length;
    } else if (ch === "×" || ch === "·") {
      out.push({ t: "op", v: "*" });
      i++;
    } else if (ch === "÷") {
      out.push({ t: "op", v: "/" });
      i++;
    } else return undefined;
  }
  return out;
}

class Parser {
  private pos = 0;
  constructor(private readonly toks: Tok[]) {}

  parse(): number | undefined {
    const v = this.expr();
    return v !== undefined && this.pos === this.toks.length ? v : undefined;
  }

  private peek(): Tok | undefined {
    return this.toks[this.pos];
  }

  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.t === "op" && t.v === v;
  }

  private expr(): number | undefined {
    let left = this.term();
    while (left !== undefined && (this.isOp("+") || this.isOp("-"))) {
      const op = (this.toks[this.pos++] as { v: string }).v;
      const right = this.term();
      if (right === undefined) return undefined;
      left = op === "+" ? left + right : left - right;
    }
    return left;
  }

  private term(): number | undefined {
    let left = this.unary();
    for (;;) {
      if (left === undefined) return undefined;
      const t = this.peek();
      if (t?.t === "op" && (t.v === "*" || t.v === "/")) {
        this.pos++;
        const right = this.unary();
        if (right === undefined) return undefined;
        left = t.v === "*" ? left * right : left / right;
      } else if (t?.t === "cmd" && (t.v === "cdot" || t.v === "times" || t.v === "div")) {
        this.pos++;
        const right = this.unary();
        if (right === undefined) return undefined;
        left = t.v === "div" ? left / right : left * right;
      } else if (t !== undefined && (t.t === "num" || t.t === "cmd" || (t.t === "op" && (t.v === "(" || t.v === "{")))) {
        // Implicit multiplication: 2\pi, 3\sqrt{2}, 2(5).
        const right = this.power();
        if (right === undefined) return undefined;
        left *= right;
      } else return left;
    }
  }

  private unary(): number | undefined {
    if (this.isOp("-")) {
      this.pos++;
      const v = this.unary();
      return v === undefined ? undefined : -v;
    }
    if (this.isOp("+")) {
      this.pos++;
      return this.unary();
    }
    return this.power();
  }

  private power(): number | undefined {
    const base = this.atom();
    if (base === undefined) return undefined;
    if (this.isOp("^")) {
      this.pos++;
      const exp = this.unary();
      return exp === undefined ? undefined : base ** exp;
    }
    return base;
  }

  private group(open: string, close: string): number | undefined {
    if (!this.isOp(open)) return undefined;
    this.pos++;
    const v = this.expr();
    if (v === undefined || !this.isOp(close)) return undefined;
    this.pos++;
    return v;
  }

  private atom(): number | undefined {
    const t = this.peek();
    if (t === undefined) return undefined;
    if (t.t === "num") {
      this.pos++;
      return t.v;
    }
    if (t.t === "op") {
      if (t.v === "(") return this.group("(", ")");
      if (t.v === "{") return this.group("{", "}");
      return undefined;
    }
    this.pos++;
    switch (t.v) {
      case "pi":
        return Math.PI;
      case "frac": {
        const a = this.group("{", "}") ?? this.digitArg();
        const b = a === undefined ? undefined : (this.group("{", "}") ?? this.digitArg());
        return a === undefined || b === undefined ? undefined : a / b;
      }
      case "sqrt": {
        let index = 2;
        if (this.isOp("[")) {
          const n = this.group("[", "]");
          if (n === undefined) return undefined;
          index = n;
        }
        const v = this.group("{", "}") ?? this.digitArg();
        return v === undefined ? undefined : v ** (1 / index);
      }
      default:
        return undefined;
    }
  }

  /** `\frac12` style single-digit arguments. */
  private digitArg(): number | undefined {
    const t = this.peek();
    if (t?.t !== "num") return undefined;
    const text = String(t.v);
    if (text.length === 1) {
      this.pos++;
      return t.v;
    }
    return undefined;
  }
}

/** The numeric value of a canonical expression, or undefined when it is not a closed-form number. */
export function evaluateExpression(canonical: string): number | undefined {
  if (canonical === "") return undefined;
  const slash = /^(-?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(canonical);
  if (slash) return Number(slash[1]) / Number(slash[2]);
  const toks = tokenize(canonical);
  if (!toks) return undefined;
  const v = new Parser(toks).parse();
  return v !== undefined && Number.isFinite(v) ? v : undefined;
}
