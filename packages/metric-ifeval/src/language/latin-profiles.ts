/**
 * Function-word profiles of the Latin-script languages SEA-HELM evaluates. Function words make up
 * a large, stable share of running text in every language, so counting them separates languages
 * that share an alphabet. Words listed for several languages count for each, divided by how many
 * list them, so shared words (Indonesian/Malay "yang", "dan") weigh less than distinctive ones.
 */
const PROFILES: Record<string, string> = {
  en: `the be to of and a an in that have has had i it for not on with he as you do does did at this
    but his by from they we say her she or will my one all would there their what so up out if about
    who get which go me when make can like no just him know take into your some could them see other
    than then now only its over think also back after use two how our well way even new want because
    any these give most us is are was were been being should must may those here where why very more
    such each between through during before under while yes answer our it's don't`,
  id: `yang dan di ke dari untuk dengan ini itu tidak adalah akan pada dalam juga atau oleh karena bisa
    dapat sudah telah belum saya kami kita mereka anda dia ia ada tersebut sebagai seperti lebih harus
    hanya saja bahwa yaitu jika kalau tetapi tapi namun sehingga agar supaya setelah sebelum ketika
    saat masih sangat banyak semua setiap hal cara secara bagi tentang antara hingga sampai begitu
    bagaimana apa siapa mengapa kenapa berapa sini sana pun lagi mau sedang baru para bukan tak
    sendiri membuat menjadi merupakan memiliki mempunyai melakukan digunakan terhadap beberapa
    sekarang bahkan selalu tanpa jawaban ya mungkin kepada nggak gak banget sih dong aku kamu`,
  ms: `yang dan di ke dari untuk dengan ini itu tidak adalah ialah akan pada dalam juga atau oleh kerana
    boleh dapat sudah telah belum saya kami kita mereka anda dia ia ada tersebut sebagai seperti lebih
    perlu hanya sahaja bahawa iaitu jika sekiranya apabila tetapi namun supaya agar selepas sebelum
    ketika semasa masih sangat banyak semua setiap hal cara secara bagi tentang antara hingga sehingga
    bagaimana apa siapa mengapa kenapa mana berapa pun lagi mahu sedang baharu para bukan tak sendiri
    membuat menjadi merupakan mempunyai melakukan digunakan terhadap beberapa sekarang bahkan sentiasa
    tanpa jawapan ya mungkin daripada kepada walaupun manakala seseorang kerajaan cuba wang anda`,
  vi: `của và là có không những được trong một cho với các này người để đã khi cũng như từ thì đến về
    nhiều tôi bạn chúng ta nó sẽ rằng vì nhưng hoặc nếu đó làm ra lại còn theo năm việc rất hơn nên
    đang bị vào trên sau cách mà thể nhất hay câu trả lời gì ai đâu sao nào bao nhiêu họ mình cả tất
    đều chỉ mới vẫn đây kia ấy thế vậy nhé ạ giữa dưới trước tại qua chưa đi biết muốn cần phải`,
  tl: `ang ng mga sa na at ay si ni ko mo siya ako ikaw ka kami tayo sila kayo hindi oo ito iyon iyan
    para kung pero dahil lamang lang din rin naman po may mayroon wala nang kay kanila niya nila namin
    natin ninyo bawat isang upang ngunit kapag habang ba pa nga ano sino saan kailan paano bakit ilan
    dito doon diyan lahat marami kaunti mas pinaka gaya tulad tungkol ayon sagot siguro maaari puwede
    dapat gusto kailangan noon ngayon bago pagkatapos sapagkat kaya mula hanggang akin iyong kaniya
    kanya amin atin inyo`,
  jv: `lan ing sing iku iki ora karo kanggo saka uga wis wes dadi marang menyang kang ana kuwi aku kowe
    sampeyan awake nanging utawa amarga merga yen menawa banjur terus mung wae durung arep bakal bisa
    saben kabeh akeh sithik luwih banget apa sapa kepiye piye ngendi endi kapan pira kene kana kae
    dheweke padha ya sampun kula panjenengan punika menika ingkang saha dados badhe mboten boten
    sanget kaliyan saking dhateng wonten kangge utawi amargi sakmenika saged ugi kados inggih sedaya
    kathah ndadekake nggunakake nduweni duwe jawabanku mesthi kudu ngono ngene lho tenan sadurunge
    sawise nalika sajrone antarane babagan wong`,
  su: `jeung nu teh téh anu ieu eta éta henteu teu geus bakal keur pikeun ku aya jadi oge ogé urang abdi
    anjeun manehna manéhna maranehna maranéhna tapi atawa sabab lamun kudu bisa leuwih pisan saha naon
    kumaha dimana iraha sabaraha dina kana kitu kieu mah wae waé sareng kanggo nyaeta nyaéta hiji ti
    ka di tina ngeunaan antara sanggeus saacan nalika masih kabeh kabéh loba saeutik jalma ayeuna
    engke engké parantos tos atuh jawapan meureun enya sok bari mun lain hal cara sakabeh sakabéh
    nepi dugi nyieun ngagunakeun boga gaduh ngan ukur`,
};

/** The Latin-script languages the profile detector can return, in tie-break order. */
export const LATIN_LANGUAGES = ["en", "id", "ms", "vi", "tl", "jv", "su"] as const;

/** word → [language, weight] pairs, weight = 1 / number of languages listing the word. */
export const FUNCTION_WORD_WEIGHTS: ReadonlyMap<string, readonly [string, number][]> = buildWeights();

function buildWeights(): Map<string, [string, number][]> {
  const owners = new Map<string, Set<string>>();
  for (const language of LATIN_LANGUAGES) {
    for (const word of (PROFILES[language] ?? "").split(/\s+/)) {
      if (word === "") continue;
      const key = word.normalize("NFC");
      const set = owners.get(key) ?? new Set<string>();
      set.add(language);
      owners.set(key, set);
    }
  }
  const weights = new Map<string, [string, number][]>();
  for (const [word, set] of owners) weights.set(word, [...set].map((language) => [language, 1 / set.size]));
  return weights;
}
