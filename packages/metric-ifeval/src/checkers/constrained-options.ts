/**
 * The fixed answers of detectable_format:constrained_response, per language, as the SEA-IFEval
 * prompts word them ("My answer is yes." and its translations). A response passes when it
 * contains any of its language's options.
 */
export const CONSTRAINED_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  en: ["My answer is yes.", "My answer is no.", "My answer is maybe."],
  id: ["Jawaban saya adalah ya.", "Jawaban saya adalah tidak.", "Jawaban saya adalah mungkin."],
  vi: ["Câu trả lời của tôi là có.", "Câu trả lời của tôi là không.", "Câu trả lời của tôi là có thể."],
  tl: ["Ang sagot ko ay oo.", "Ang sagot ko ay hindi.", "Ang sagot ko ay siguro."],
  th: ["คำตอบของฉันคือใช่", "คำตอบของฉันคือไม่", "คำตอบของฉันคืออาจจะ"],
  jv: ["Jawabanku ya.", "Jawabanku ora.", "Jawabanku mungkin."],
  su: ["Jawapan abdi enya.", "Jawapan abdi henteu.", "Jawapan abdi meureun."],
  ta: ["என்னுடைய பதில் ஆம்.", "என்னுடைய பதில் இல்லை.", "என்னுடைய பதில் ஒருவேளை இருக்கலாம்."],
  ms: ["Jawapan saya ialah ya.", "Jawapan saya ialah tidak.", "Jawapan saya ialah mungkin."],
  my: ["ကျွန်ုပ်၏အဖြေသည် ဟုတ်ပါတယ်။", "ကျွန်ုပ်၏အဖြေသည် မဟုတ်ပါ။", "ကျွန်ုပ်၏အဖြေသည် တစ်ချို့ဖြစ်နိုင်ပါတယ်။"],
  lo: ["ຄໍາຕອບຂອງຂ້ອຍແມ່ນຈິງ.", "ຄໍາຕອບຂອງຂ້ອຍແມ່ນບໍ່ຈິງ.", "ຄໍາຕອບຂອງຂ້ອຍແມ່ນອາດຈະຈິງ."],
  km: ["ខ្ញុំយល់ស្រប។", "ខ្ញុំមិនយល់ស្រប។", "ខ្ញុំមិនច្បាស់ដែរ។"],
};
