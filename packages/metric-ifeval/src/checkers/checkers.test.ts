import { describe, expect, it } from "vitest";
import { detectLanguage } from "../language/detect-language.js";
import { InstructionArgumentError } from "./arguments.js";
import { CHECKERS, INSTRUCTION_IDS, type InstructionId } from "./index.js";
import type { CheckerContext } from "./types.js";

function check(id: InstructionId, response: string, kwargs: Record<string, unknown> = {}, ctx: Partial<CheckerContext> = {}): boolean {
  return CHECKERS[id](response, kwargs, {
    language: "en",
    pythonWordChars: false,
    upstreamResponseLanguage: false,
    detectLanguage: (text) => detectLanguage(text).language,
    ...ctx,
  });
}

describe("instruction checkers", () => {
  it("has the 21 SEA-IFEval instructions", () => {
    expect(INSTRUCTION_IDS).toHaveLength(21);
  });

  describe("length_constraints", () => {
    const id = "length_constraints:number_words";
    it("counts words with every relation", () => {
      const text = "one two three-four five";
      expect(check(id, text, { relation: "exactly", num_words: 5 })).toBe(true); // the hyphen splits a word
      expect(check(id, text, { relation: "exactly", num_words: 4 })).toBe(false);
      expect(check(id, text, { relation: "at least", num_words: "5" })).toBe(true);
      expect(check(id, text, { relation: "at least", num_words: 6 })).toBe(false);
      expect(check(id, text, { relation: "less than", num_words: 6 })).toBe(true);
      expect(check(id, text, { relation: "less than", num_words: 5 })).toBe(false);
    });
    it("keeps Tamil words whole unless pythonWordChars reproduces upstream", () => {
      const tamil = "தமிழ் மொழி"; // two words, each with vowel signs
      expect(check(id, tamil, { relation: "exactly", num_words: 2 }, { language: "ta" })).toBe(true);
      expect(check(id, tamil, { relation: "exactly", num_words: 2 }, { language: "ta", pythonWordChars: true })).toBe(false);
    });
    it("counts ***-separated sentences", () => {
      const sid = "length_constraints:number_sentences";
      expect(check(sid, "***First.*** Second. *** Third.***", { relation: "exactly", num_sentences: 3 })).toBe(true);
      expect(check(sid, "First. *** *** Second.", { relation: "exactly", num_sentences: 3 })).toBe(false);
      expect(check(sid, "One sentence only.", { relation: "less than", num_sentences: 2 })).toBe(true);
    });
    it("requires exactly N paragraphs, ignoring empty blocks", () => {
      const pid = "length_constraints:number_paragraphs";
      expect(check(pid, "Para one.\n***\nPara two.\n***\nPara three.", { num_paragraphs: 3 })).toBe(true);
      expect(check(pid, "***\nPara one.\n***\nPara two.\n***", { num_paragraphs: 2 })).toBe(true);
      expect(check(pid, "Para one.\n\nPara two.", { num_paragraphs: 2 })).toBe(false);
    });
    it("rejects a bad relation or count", () => {
      expect(() => check(id, "x", { relation: "more than", num_words: 1 })).toThrow(InstructionArgumentError);
      expect(() => check(id, "x", { relation: "exactly", num_words: "many" })).toThrow(/num_words.*expected an integer/);
      expect(() => check(id, "x", { relation: "exactly" })).toThrow(/num_words is missing/);
    });
  });

  describe("detectable_content", () => {
    it("finds postscripts, with an optional space after inner periods", () => {
      const id = "detectable_content:postscript";
      expect(check(id, "Hello.\n\nP.S. See you soon.", { postscript_marker: "P.S." })).toBe(true);
      expect(check(id, "Hello.\np. s. lowercase works", { postscript_marker: "P.S." })).toBe(true);
      expect(check(id, "Hello.\nP.S. only one", { postscript_marker: "P.P.S." })).toBe(false);
      expect(check(id, "Hello.\nP.P.S. two", { postscript_marker: "P.P.S." })).toBe(true);
      expect(check(id, "สวัสดี\nป.ล. ขอบคุณ", { postscript_marker: "ป.ล." }, { language: "th" })).toBe(true);
      expect(check(id, "สวัสดี ขอบคุณ", { postscript_marker: "ป.ล." }, { language: "th" })).toBe(false);
    });
    it("counts only non-empty placeholders", () => {
      const id = "detectable_content:number_placeholders";
      expect(check(id, "Dear [name], at [address].", { num_placeholders: 2 })).toBe(true);
      expect(check(id, "Dear [name], at [ ] and [].", { num_placeholders: 2 })).toBe(false);
    });
  });

  describe("detectable_format", () => {
    it("finds a non-empty <<title>>", () => {
      expect(check("detectable_format:title", "<<My Poem>>\nRoses are red")).toBe(true);
      expect(check("detectable_format:title", "<<  >>\nRoses are red")).toBe(false);
      expect(check("detectable_format:title", "<<broken\ntitle>>")).toBe(false);
    });
    it("counts bullets that have a space and text after the marker", () => {
      const id = "detectable_format:number_bullet_lists";
      const text = "Intro\n* first\n- second\n  * **bold third**\n*not a bullet*\n-also not";
      expect(check(id, text, { num_bullets: 3 })).toBe(true);
      expect(check(id, text, { num_bullets: 4 })).toBe(false);
    });
    it("counts sections with a number or word after the title", () => {
      const id = "detectable_format:multiple_sections";
      const text = "SECTION 1\nfoo\nSECTION 2\nbar\nSECTION A\nbaz";
      expect(check(id, text, { section_title: "SECTION", num_sections: 3 })).toBe(true);
      expect(check(id, "SECTION1 foo SECTION 2", { section_title: "SECTION", num_sections: 2 })).toBe(false);
      expect(check(id, "Phần 1: mở đầu. Phần 2: kết luận.", { section_title: "Phần", num_sections: 2 }, { language: "vi" })).toBe(true);
    });
    it("counts highlighted and bold spans like upstream", () => {
      const id = "detectable_format:number_highlighted_sections";
      expect(check(id, "*one* and **two** and * *", { num_highlights: 2 })).toBe(true);
      expect(check(id, "*one* and * *", { num_highlights: 2 })).toBe(false);
    });
    it("accepts JSON, optionally fenced, and nothing else", () => {
      const id = "detectable_format:json_format";
      expect(check(id, '{"a": [1, 2]}')).toBe(true);
      expect(check(id, '```json\n{"a": 1}\n```')).toBe(true);
      expect(check(id, '```\n["x"]\n```')).toBe(true);
      expect(check(id, 'Here you go: {"a": 1}')).toBe(false);
      expect(check(id, '```json\n```json\n{"a": 1}\n```')).toBe(false);
    });
    it("matches the language's constrained answers", () => {
      const id = "detectable_format:constrained_response";
      expect(check(id, "I think... My answer is maybe.")).toBe(true);
      expect(check(id, "My answer: yes")).toBe(false);
      expect(check(id, "Jawapan saya ialah tidak.", {}, { language: "ms" })).toBe(true);
      expect(check(id, "Jawaban saya adalah tidak.", {}, { language: "ms" })).toBe(false);
      expect(() => check(id, "是", {}, { language: "zh" })).toThrow(/no answer options for language "zh"/);
    });
  });

  describe("startend", () => {
    it("checks the first word and the end phrase case-insensitively", () => {
      expect(check("startend:first_word", "  Hello there", { first_word: "hello" })).toBe(true);
      expect(check("startend:first_word", "Well, hello", { first_word: "hello" })).toBe(false);
      expect(check("startend:end_checker", "Thanks. Any other questions?  ", { end_phrase: "any other QUESTIONS?" })).toBe(true);
      expect(check("startend:end_checker", "Any other questions? Bye", { end_phrase: "Any other questions?" })).toBe(false);
    });
    it("requires content inside the quotation marks", () => {
      expect(check("startend:quotation", ' "quoted answer" ')).toBe(true);
      expect(check("startend:quotation", '""')).toBe(false);
      expect(check("startend:quotation", '"unterminated')).toBe(false);
    });
  });

  describe("keywords", () => {
    it("matches whole words ignoring case for spaced languages, Unicode included", () => {
      const id = "keywords:existence";
      expect(check(id, "The Cat sat.", { keywords: ["cat", "sat"] })).toBe(true);
      expect(check(id, "The category sat.", { keywords: ["cat"] })).toBe(false);
      expect(check(id, "Tôi có một con mèo.", { keywords: ["có"] }, { language: "vi" })).toBe(true);
      expect(check(id, "Tôi cóc một con mèo.", { keywords: ["có"] }, { language: "vi" })).toBe(false);
    });
    it("matches substrings case-sensitively for th, my, ta, tl, lo, km", () => {
      const id = "keywords:existence";
      expect(check(id, "ฉันชอบแมวมาก", { keywords: ["แมว"] }, { language: "th" })).toBe(true);
      expect(check(id, "Ang Pusa ay maganda", { keywords: ["pusa"] }, { language: "tl" })).toBe(false);
      expect(check(id, "Ang mga pusa ay maganda", { keywords: ["pusa"] }, { language: "tl" })).toBe(true);
    });
    it("treats keywords as text, not patterns", () => {
      expect(check("keywords:existence", "Costs 5.00 dollars", { keywords: ["5.00"] })).toBe(true);
      expect(check("keywords:existence", "Costs 5x00 dollars", { keywords: ["5.00"] })).toBe(false);
      expect(check("keywords:existence", "use C++ daily", { keywords: ["C++"] }, { language: "tl" })).toBe(true);
    });
    it("fails when a forbidden word appears", () => {
      const id = "keywords:forbidden_words";
      expect(check(id, "A calm reply.", { forbidden_words: ["angry", "mad"] })).toBe(true);
      expect(check(id, "A MAD reply.", { forbidden_words: ["angry", "mad"] })).toBe(false);
      expect(check(id, "A nomad reply.", { forbidden_words: ["mad"] })).toBe(true);
    });
    it("counts keyword frequency ignoring case", () => {
      const id = "keywords:frequency";
      const text = "Rice, rice and RICE. Ricefield.";
      expect(check(id, text, { keyword: "rice", relation: "exactly", frequency: 3 })).toBe(true);
      expect(check(id, text, { keyword: "rice", relation: "less than", frequency: 3 })).toBe(false);
      expect(check(id, "ข้าว ข้าวเหนียว ข้าว", { keyword: "ข้าว", relation: "at least", frequency: 3 }, { language: "th" })).toBe(true);
    });
    it("counts number occurrences as substrings, like upstream", () => {
      const id = "keywords:number_frequency";
      expect(check(id, "5 apples, 15 pears, 5 plums", { number: "5", relation: "exactly", frequency: 3 })).toBe(true);
      expect(check(id, "5 apples", { number: 5, relation: "at least", frequency: 2 })).toBe(false);
    });
  });

  describe("combination", () => {
    it("requires the repeated prompt and then an answer", () => {
      const id = "combination:repeat_prompt";
      const prompt = "What is the capital of France?";
      expect(check(id, "what is the capital of france? Paris.", { prompt_to_repeat: prompt })).toBe(true);
      expect(check(id, "What is the capital of France?  ", { prompt_to_repeat: prompt })).toBe(false);
      expect(check(id, "Paris. What is the capital of France?", { prompt_to_repeat: prompt })).toBe(false);
    });
    it("requires exactly two non-empty responses around ******", () => {
      const id = "combination:two_responses";
      expect(check(id, "First answer.\n******\nSecond answer.")).toBe(true);
      expect(check(id, "First answer.\n******\n...\n")).toBe(false);
      expect(check(id, "One\n******\nTwo\n******\nThree")).toBe(false);
    });
  });

  describe("language:response_language", () => {
    const id = "language:response_language";
    it("detects the response language", () => {
      expect(check(id, "Saya sangat suka makan nasi goreng dengan teman-teman saya.", { response_language: "id" })).toBe(true);
      expect(check(id, "I really like to eat fried rice with my friends.", { response_language: "id" })).toBe(false);
      expect(check(id, "ฉันชอบกินข้าวผัดกับเพื่อน", { response_language: "th" })).toBe(true);
    });
    it("accepts Indonesian for ms unless upstreamResponseLanguage is set", () => {
      const indonesian = "Saya tidak bisa datang karena saya sudah punya rencana lain bahwa hari itu.";
      expect(check(id, indonesian, { response_language: "ms" }, { detectLanguage: () => "id" })).toBe(true);
      expect(check(id, indonesian, { response_language: "ms" }, { detectLanguage: () => "id", upstreamResponseLanguage: true })).toBe(false);
      expect(check(id, indonesian, { response_language: "id" }, { detectLanguage: () => "ms", upstreamResponseLanguage: true })).toBe(true);
    });
  });
});
