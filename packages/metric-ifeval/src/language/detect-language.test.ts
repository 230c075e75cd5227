import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectLanguage, languageMatches } from "./detect-language.js";
import { detectLatinLanguage } from "./latin-detector.js";
import { detectScript } from "./scripts.js";

const samples = JSON.parse(readFileSync(new URL("../__fixtures__/language-samples.json", import.meta.url), "utf8")) as Record<string, string[] | string>;

describe("detectLanguage", () => {
  for (const [language, sentences] of Object.entries(samples)) {
    if (!Array.isArray(sentences)) continue;
    it(`identifies ${language} sample sentences`, () => {
      expect(sentences.map((s) => detectLanguage(s).language)).toEqual(sentences.map(() => language));
    });
  }

  it("follows the dominant script in mixed text", () => {
    expect(detectLanguage("ฉันชอบเขียนโปรแกรมด้วย Python มาก เพราะว่ามันง่ายและสนุก").language).toBe("th");
    expect(detectLanguage("Saya suka menulis kode dalam bahasa Python karena mudah dipelajari.").language).toBe("id");
  });

  it("separates Urdu and Persian from Arabic", () => {
    expect(detectLanguage("آج موسم بہت اچھا ہے، اس لیے ہم بازار گئے۔").language).toBe("ur");
    expect(detectLanguage("امروز هوا خیلی خوب است، پس ما پیاده به بازار رفتیم.").language).toBe("fa");
  });

  it("returns und when there is no usable signal", () => {
    expect(detectLanguage("").language).toBe("und");
    expect(detectLanguage("12345 !!! ---").language).toBe("und");
    expect(detectLanguage("OK").language).toBe("und");
    // An unsupported Latin-script language is not forced onto a supported one.
    expect(detectLanguage("Je pense que partir demain matin serait une excellente idée.").language).toBe("und");
  });

  it("reports weighted function-word scores", () => {
    const verdict = detectLatinLanguage("Jawapan saya ialah ya.");
    expect(verdict.language).toBe("ms");
    expect(verdict.wordCount).toBe(4);
    expect(verdict.scores.ms).toBeGreaterThan(verdict.scores.id ?? 0);
  });

  it("reports the dominant script and its share", () => {
    const verdict = detectScript("ภาษาไทย abc");
    expect(verdict.script).toBe("Thai");
    expect(verdict.share).toBeCloseTo(7 / 10, 5);
  });
});

describe("languageMatches", () => {
  it("treats id and ms as interchangeable and nothing else", () => {
    expect(languageMatches("ms", "id")).toBe(true);
    expect(languageMatches("id", "ms")).toBe(true);
    expect(languageMatches("jv", "id")).toBe(false);
    expect(languageMatches("en", "en")).toBe(true);
  });
});
