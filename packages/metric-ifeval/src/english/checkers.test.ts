/** Each of google's 25 instructions on hand-written responses, strict and loose; expected values worked out by hand. */
import { describe, expect, it } from "vitest";
import type { Kwargs } from "../checkers/arguments.js";
import type { CheckerContext } from "../checkers/types.js";
import { detectLanguage } from "../language/detect-language.js";
import { ENGLISH_INSTRUCTION_IDS, type EnglishInstructionId } from "./checkers.js";
import { followInstructions, looseVariants } from "./english-metric.js";
import { countWords, splitIntoSentences } from "./sentences.js";

const ctx: CheckerContext = { language: "en", pythonWordChars: false, upstreamResponseLanguage: false, detectLanguage: (t) => detectLanguage(t).language };

/** [strict, loose] for one instruction. */
function check(id: EnglishInstructionId, kwargs: Kwargs, response: string): [boolean, boolean] {
  const { strict, loose } = followInstructions(response, [{ id, kwargs }], ctx);
  return [strict[0]!, loose[0]!];
}

const ENGLISH = "The weather is very nice and I think that we should go to the park with the children.";

describe("google's IFEval instructions", () => {
  it("covers the 25 instruction ids of google's registry", () => {
    expect(ENGLISH_INSTRUCTION_IDS).toHaveLength(25);
    expect(ENGLISH_INSTRUCTION_IDS).toContain("change_case:capital_word_frequency");
    expect(ENGLISH_INSTRUCTION_IDS).not.toContain("startend:first_word"); // SEA-IFEval only
  });

  it("keywords: existence as substrings ignoring case, frequency, forbidden whole words, letter counts", () => {
    expect(check("keywords:existence", { keywords: ["Tokyo", "sushi"] }, "I ate SUSHI in tokyo.")).toEqual([true, true]);
    expect(check("keywords:existence", { keywords: ["Tokyo", "sushi"] }, "Tokyoites eat sushi.")).toEqual([true, true]);
    expect(check("keywords:existence", { keywords: ["Tokyo", "sushi"] }, "I ate sushi.")).toEqual([false, false]);
    expect(check("keywords:frequency", { keyword: "cat", frequency: 2, relation: "at least" }, "Cat and cat")).toEqual([true, true]);
    expect(check("keywords:frequency", { keyword: "cat", frequency: 2, relation: "at least" }, "a cat")).toEqual([false, false]);
    expect(check("keywords:frequency", { keyword: "cat", frequency: 2, relation: "less than" }, "a cat")).toEqual([true, true]);
    expect(check("keywords:forbidden_words", { forbidden_words: ["bad"] }, "This is badly done")).toEqual([true, true]);
    expect(check("keywords:forbidden_words", { forbidden_words: ["bad"] }, "Bad idea")).toEqual([false, false]);
    // Loose drops the first line, where the word was.
    expect(check("keywords:forbidden_words", { forbidden_words: ["bad"] }, "Bad idea\nA good one instead")).toEqual([false, true]);
    expect(check("keywords:letter_frequency", { letter: "z", let_frequency: 2, let_relation: "at least" }, "Zoo zebra")).toEqual([true, true]);
    expect(check("keywords:letter_frequency", { letter: "z", let_frequency: 2, let_relation: "at least" }, "zoo")).toEqual([false, false]);
  });

  it("language: the detected language, and text without letters counts as followed (langdetect cannot tell)", () => {
    expect(check("language:response_language", { language: "en" }, ENGLISH)).toEqual([true, true]);
    expect(check("language:response_language", { language: "th" }, "สวัสดีครับ วันนี้อากาศดีมาก")).toEqual([true, true]);
    expect(check("language:response_language", { language: "th" }, ENGLISH)).toEqual([false, false]);
    expect(check("language:response_language", { language: "th" }, "12345")).toEqual([true, true]);
  });

  it("length constraints: sentences, *** paragraphs, \\w+ words, the nth paragraph's first word", () => {
    expect(check("length_constraints:number_sentences", { num_sentences: 3, relation: "less than" }, "Dr. Smith arrived. He sat down.")).toEqual([true, true]);
    expect(check("length_constraints:number_sentences", { num_sentences: 4, relation: "at least" }, "One. Two! Three? Four")).toEqual([true, true]);
    expect(check("length_constraints:number_paragraphs", { num_paragraphs: 2 }, "A\n***\nB")).toEqual([true, true]);
    expect(check("length_constraints:number_paragraphs", { num_paragraphs: 2 }, "***\nA\n***\nB")).toEqual([true, true]);
    // An empty paragraph in the middle fails at once.
    expect(check("length_constraints:number_paragraphs", { num_paragraphs: 2 }, "A *** *** B")).toEqual([false, false]);
    expect(check("length_constraints:number_words", { num_words: 5, relation: "less than" }, "one two-three four")).toEqual([true, true]);
    expect(check("length_constraints:number_words", { num_words: 5, relation: "at least" }, "one two-three four")).toEqual([false, false]);
    const nth = { num_paragraphs: 2, nth_paragraph: 2, first_word: "second" };
    expect(check("length_constraints:nth_paragraph_first_word", nth, 'First para.\n\n"Second, here.')).toEqual([true, true]);
    expect(check("length_constraints:nth_paragraph_first_word", nth, "First\n\nThird")).toEqual([false, false]);
    // Upstream counts non-blank paragraphs but indexes all of them: the 2nd part is blank here.
    expect(check("length_constraints:nth_paragraph_first_word", nth, "First\n\n\n\nSecond")).toEqual([false, false]);
  });

  it("detectable content: placeholders (empty brackets count) and postscripts", () => {
    expect(check("detectable_content:number_placeholders", { num_placeholders: 2 }, "[name] and []")).toEqual([true, true]);
    expect(check("detectable_content:number_placeholders", { num_placeholders: 2 }, "[name]")).toEqual([false, false]);
    expect(check("detectable_content:postscript", { postscript_marker: "P.S." }, "Hi\np. s. see you")).toEqual([true, true]);
    expect(check("detectable_content:postscript", { postscript_marker: "P.P.S" }, "PPS later")).toEqual([false, false]);
    expect(check("detectable_content:postscript", { postscript_marker: "P.P.S" }, "Bye\nP.P.S bye")).toEqual([true, true]);
  });

  it("detectable format: bullets, constrained answers, highlights, sections, JSON, titles", () => {
    expect(check("detectable_format:number_bullet_lists", { num_bullets: 2 }, "* a\n* b")).toEqual([true, true]);
    // Three bullets ("-c" counts too); loose drops the first line and finds two.
    expect(check("detectable_format:number_bullet_lists", { num_bullets: 2 }, "* a\n- b\n-c")).toEqual([false, true]);
    // "**bold**" is not a bullet; strict sees one bullet, loose strips the asterisks (then none).
    expect(check("detectable_format:number_bullet_lists", { num_bullets: 2 }, "**bold** line\n* a")).toEqual([false, false]);
    expect(check("detectable_format:constrained_response", {}, "My answer is yes.")).toEqual([true, true]);
    expect(check("detectable_format:constrained_response", {}, "Yes.")).toEqual([false, false]);
    expect(check("detectable_format:number_highlighted_sections", { num_highlights: 2 }, "*one* and **two**")).toEqual([true, true]);
    expect(check("detectable_format:number_highlighted_sections", { num_highlights: 3 }, "*one* and **two**")).toEqual([false, false]);
    const sections = { section_spliter: "Section", num_sections: 2 };
    expect(check("detectable_format:multiple_sections", sections, "Section 1\nfoo\nSection 2\nbar")).toEqual([true, true]);
    expect(check("detectable_format:multiple_sections", sections, "SECTION 1\nfoo\nSECTION 2\nbar")).toEqual([false, false]);
    expect(check("detectable_format:json_format", {}, '```json\n{"a": 1}\n```')).toEqual([true, true]);
    expect(check("detectable_format:json_format", {}, 'Here you go:\n{"a": 1}')).toEqual([false, true]);
    expect(check("detectable_format:title", {}, "<<My Poem>>\ntext")).toEqual([true, true]);
    expect(check("detectable_format:title", {}, "<< >>\ntext")).toEqual([false, false]);
  });

  it("combination: two different responses, the prompt repeated first", () => {
    expect(check("combination:two_responses", {}, "Answer A\n******\nAnswer B")).toEqual([true, true]);
    expect(check("combination:two_responses", {}, "Same\n******\nSame")).toEqual([false, false]);
    expect(check("combination:two_responses", {}, "A ****** ****** B")).toEqual([false, false]);
    const prompt = { prompt_to_repeat: "Write a poem." };
    expect(check("combination:repeat_prompt", prompt, "write a poem. Roses are red.")).toEqual([true, true]);
    expect(check("combination:repeat_prompt", prompt, "Sure!\nWrite a poem. Roses are red.")).toEqual([false, true]);
  });

  it("start/end: end phrase (quotes around the response ignored) and quotation", () => {
    const end = { end_phrase: "Any other questions?" };
    expect(check("startend:end_checker", end, 'Done. any other questions?"')).toEqual([true, true]);
    expect(check("startend:end_checker", end, "Any other questions? Bye")).toEqual([false, false]);
    expect(check("startend:quotation", {}, '"Hello"')).toEqual([true, true]);
    expect(check("startend:quotation", {}, '""')).toEqual([true, true]); // as upstream: two quote marks suffice
    expect(check("startend:quotation", {}, "Hello")).toEqual([false, false]);
    expect(check("startend:quotation", {}, '**"Hi"**')).toEqual([false, true]);
  });

  it("change case and punctuation", () => {
    const caps = { capital_frequency: 2, capital_relation: "at least" };
    expect(check("change_case:capital_word_frequency", caps, "This is VERY, VERY well-KNOWN")).toEqual([true, true]);
    expect(check("change_case:capital_word_frequency", { ...caps, capital_relation: "less than" }, "This is VERY, VERY well-KNOWN")).toEqual([false, false]);
    expect(check("change_case:english_capital", {}, ENGLISH.toUpperCase())).toEqual([true, true]);
    expect(check("change_case:english_capital", {}, ENGLISH)).toEqual([false, false]);
    expect(check("change_case:english_lowercase", {}, ENGLISH.toLowerCase())).toEqual([true, true]);
    expect(check("change_case:english_lowercase", {}, `Sure! Here it is:\n${ENGLISH.toLowerCase()}`)).toEqual([false, true]);
    expect(check("punctuation:no_comma", {}, "a, b")).toEqual([false, false]);
    expect(check("punctuation:no_comma", {}, "a b")).toEqual([true, true]);
  });

  it("an empty response follows no instruction", () => {
    expect(check("punctuation:no_comma", {}, "   ")).toEqual([false, false]);
  });

  it("a bad argument names the instruction", () => {
    expect(() => check("keywords:frequency", { keyword: "cat", frequency: 2, relation: "exactly" }, "cat")).toThrow(
      /keywords:frequency: kwargs\.relation is "exactly", expected "less than" or "at least"/,
    );
    expect(() => check("length_constraints:number_words", { relation: "at least" }, "cat")).toThrow(/number_words: kwargs\.num_words is missing/);
  });
});

describe("loose variants and counting", () => {
  it("tries the response without its first/last line and without asterisks", () => {
    expect(looseVariants("a\n*b*\nc")).toEqual(["a\n*b*\nc", "a\nb\nc", "*b*\nc", "a\n*b*", "*b*", "b\nc", "a\nb", "b"]);
  });

  it("splits sentences around abbreviations, decimals and initials", () => {
    expect(splitIntoSentences("Dr. Smith paid 3.5 dollars. He left! Did J. R. R. Tolkien write it? Yes...")).toEqual([
      "Dr. Smith paid 3.5 dollars.",
      "He left!",
      "Did J. R. R. Tolkien write it?",
      "Yes...",
    ]);
    // Quotes move after the period, an acronym followed by a suffix and a starter ends a sentence, web addresses do not.
    expect(splitIntoSentences('He said "hi." Then U.S.A. Inc. This is it. Visit example.com now... ok')).toEqual([
      'He said "hi".',
      "Then U.S.A. Inc",
      "This is it.",
      "Visit example.com now...",
      "ok",
    ]);
    expect(countWords("It's a well-known fact, isn't it?")).toBe(9);
  });
});
