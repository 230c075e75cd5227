/** Upstream's ordinal table, misspelling included; it has no entry past nine. */
export const COMPAT_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eigth", "ninth"];

const UNITS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"];
const TEENS = ["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"];
const TENS_CARDINAL = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const TENS_ORDINAL = ["", "", "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"];

/** Correctly spelled English ordinal for 1..99. */
export function ordinal(k: number): string {
  if (!Number.isInteger(k) || k < 1 || k > 99) throw new RangeError(`ordinal out of range: ${k}`);
  if (k < 10) return UNITS[k]!;
  if (k < 20) return TEENS[k - 10]!;
  const tens = Math.floor(k / 10);
  const units = k % 10;
  return units === 0 ? TENS_ORDINAL[tens]! : `${TENS_CARDINAL[tens]}-${UNITS[units]}`;
}
