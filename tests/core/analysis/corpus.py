"""A labelled set of files for the verdict and the encoding map, made here from text of
our own in many languages: each :class:`Case` has its bytes, the verdict code it must
get and the regions it must be cut into, with boundaries known from how it was built.

A region is ``(start, end, encoding)`` or ``(start, end, "mojibake", via)``; a part of a
file made in a legacy charset inside UTF-8 text covers its own lines (the map keeps such
a region tight around its lines: see ``inspector.core.analysis.encodings.regions``).
"""

from __future__ import annotations

import random

# Legacy text is named by the decode-safe charset that reads it (Windows-1252 for Latin-1
# text without bytes 80-9F, Windows-932 for Shift JIS...: encodings/legacyguess.py).
# Paragraphs of our own, about a day out, in each language (no quotation of anyone).
FR = """Le matin, la brume couvrait encore les collines quand Hélène ouvrit la fenêtre de la cuisine.
Elle prépara du café, coupa quelques tranches de pain et regarda les élèves traverser la place à vélo.
À midi, son frère arriva de la gare avec un panier de pêches et une bouteille de cidre très frais.
Ils passèrent l'après-midi à discuter de leurs études, des élections et du prix des légumes au marché.
Le soir, le ciel se teinta d'orange ; on entendait les cloches de l'église et les cris des enfants.
Après le dîner, on joua aux cartes près de la cheminée, et le grand-père raconta ses voyages en mer.
"""
# The same with the Windows punctuation (’ « » … – œ), bytes 0x80-0x9F in Windows-1252.
FR_TYPO = (FR.replace("l'", "l’").replace("d'", "d’")
           + "« Tu as déjà vu le théâtre rénové ? » demanda-t-il… Elle répondit – avec cœur – que non.\n")
DE = """Am Wochenende fuhren wir mit dem Zug nach München, um die Großeltern zu besuchen.
Die Fahrt dauerte länger als geplant, weil an der Grenze ein Stellwerk ausgefallen war.
Unterwegs aßen wir belegte Brötchen und tranken heißen Tee aus der Thermoskanne.
Meine Schwester las ein Buch über die Geschichte der Brücken, ich hörte Musik und döste.
In der Küche duftete es nach Apfelkuchen, und der Hund begrüßte uns schwanzwedelnd an der Tür.
„Schön, dass ihr da seid“, sagte die Großmutter, und wir setzten uns zum Kaffee auf die Terrasse.
"""
ES = """El verano pasado viajamos al norte de España para conocer los pueblos de la montaña.
Caminamos durante días por senderos estrechos, comimos queso de oveja y bebimos sidra.
En una aldea pequeña, un señor mayor nos contó la historia de su familia y del molino.
Por la noche, la música sonaba en la plaza y los niños corrían detrás de las palomas.
Al volver a casa, todavía recordábamos el olor del pan recién hecho y el sonido del río.
"""
PL = """Wczoraj wieczorem poszliśmy z przyjaciółmi nad jezioro, żeby popatrzeć na zachód słońca.
Woda była spokojna, a nad brzegiem rosły wysokie trzciny i pachniało świeżo skoszoną trawą.
Kiedy zrobiło się ciemno, rozpaliliśmy ognisko i piekliśmy kiełbaski, śpiewając stare piosenki.
Następnego dnia musieliśmy wcześnie wstać, bo pociąg do Krakowa odjeżdżał o szóstej rano.
W drodze na dworzec kupiliśmy świeże bułki i gorącą kawę w małej piekarni przy rynku.
"""
CS = """Včera večer jsme šli s přáteli k řece, abychom se podívali na západ slunce.
Voda byla klidná, na břehu rostly vysoké rákosí a vonělo čerstvě posečené seno.
Když se setmělo, rozdělali jsme oheň a opékali jsme buřty, zpívali jsme staré písně.
Druhý den jsme museli brzy vstávat, protože vlak do Brna odjížděl v šest hodin ráno.
Cestou na nádraží jsme si koupili čerstvé rohlíky a horkou kávu v malé pekárně na náměstí.
"""
RU = """Вчера вечером мы с друзьями пошли к реке, чтобы посмотреть на закат солнца.
Вода была спокойной, на берегу росли высокие камыши, и пахло свежескошенной травой.
Когда стемнело, мы развели костёр, жарили сосиски и пели старые песни под гитару.
На следующий день нам пришлось рано вставать, потому что поезд в Москву уходил в шесть утра.
По дороге на вокзал мы купили свежие булочки и горячий кофе в маленькой пекарне на площади.
"""
EL = """Χθες το βράδυ πήγαμε με φίλους στη θάλασσα για να δούμε το ηλιοβασίλεμα.
Το νερό ήταν ήρεμο, στην ακτή υπήρχαν ψηλά καλάμια και μύριζε φρεσκοκομμένο χόρτο.
Όταν νύχτωσε, ανάψαμε φωτιά, ψήσαμε λουκάνικα και τραγουδήσαμε παλιά τραγούδια.
Την επόμενη μέρα έπρεπε να ξυπνήσουμε νωρίς, γιατί το τρένο έφευγε στις έξι το πρωί.
Στον δρόμο για τον σταθμό αγοράσαμε φρέσκο ψωμί και ζεστό καφέ από ένα μικρό αρτοποιείο.
"""
JA = """昨日の夕方、友達と一緒に川へ行って夕日を眺めました。
水はとても穏やかで、岸には背の高い葦が生えていて、刈ったばかりの草の匂いがしました。
暗くなってから焚き火をして、ソーセージを焼き、古い歌を歌いました。
次の日は朝早く起きなければなりませんでした。東京行きの電車が六時に出発するからです。
駅へ行く途中で、広場の小さなパン屋で焼きたてのパンと温かいコーヒーを買いました。
"""
ZH = """昨天傍晚，我和朋友们一起去河边看日落。
水面很平静，岸边长着高高的芦苇，空气中弥漫着刚割过的青草的味道。
天黑以后，我们生起篝火，烤香肠，一起唱老歌。
第二天我们必须早起，因为去北京的火车早上六点就出发了。
在去车站的路上，我们在广场边的小面包店买了新鲜的面包和热咖啡。
"""
ZH_TW = """昨天傍晚，我和朋友們一起去河邊看日落。
水面很平靜，岸邊長著高高的蘆葦，空氣中瀰漫著剛割過的青草的味道。
天黑以後，我們生起篝火，烤香腸，一起唱老歌。
第二天我們必須早起，因為去台北的火車早上六點就出發了。
在去車站的路上，我們在廣場邊的小麵包店買了新鮮的麵包和熱咖啡。
"""
KO = """어제 저녁에 친구들과 함께 강가에 가서 해가 지는 것을 보았습니다.
물은 아주 잔잔했고, 강가에는 키가 큰 갈대가 자라 있었으며, 갓 벤 풀 냄새가 났습니다.
어두워진 후에 우리는 모닥불을 피우고 소시지를 구우며 옛날 노래를 불렀습니다.
다음 날 우리는 일찍 일어나야 했습니다. 서울로 가는 기차가 아침 여섯 시에 떠났기 때문입니다.
역으로 가는 길에 광장 옆의 작은 빵집에서 갓 구운 빵과 따뜻한 커피를 샀습니다.
"""
EN = """The morning train was late again, so we waited on the platform with our coffee.
A few pigeons walked between the benches looking for crumbs while the clock ticked on.
When the train finally arrived, it was crowded, and we stood all the way to the city.
"""
MULTI = EN + FR + DE + RU + EL + JA + ZH + KO


def log_lines(n: int, seed: int = 1, unicode: bool = False) -> str:
    rng = random.Random(seed)
    users = ["anna", "bob", "chen", "dmitri", "eve"] + (["zoë", "jürgen", "мария", "東京"] if unicode else [])
    out = []
    for i in range(n):
        out.append(f"2024-05-{i % 28 + 1:02d} 12:{i % 60:02d}:{i * 7 % 60:02d} INFO "
                   f"user={rng.choice(users)} request={i} served in {rng.randrange(1, 900)} ms\n")
    return "".join(out)


def blob(n: int, seed: int = 7) -> bytes:
    """Random bytes that start and end with a control byte (so a binary region is tight
    on exactly them) and hold no newline at their edges."""
    rng = random.Random(seed)
    body = bytes(rng.randrange(256) for _ in range(n - 2))
    return b"\x01" + body + b"\x02"


class Case:
    """A labelled file: ``regions`` as (start, end, encoding[, via]) tuples."""

    def __init__(self, name: str, data: bytes, code: str, regions: list[tuple], note: str = ""):
        self.name = name
        self.data = data
        self.code = code
        self.regions = regions
        self.note = note

    def __repr__(self):
        return f"Case({self.name})"


def whole(name, text, encoding, code="legacy_charset", region=None):
    data = text.encode(encoding)
    return Case(name, data, code, [(0, len(data), region or encoding)])


def inserted(name, host: str, part: bytes, label, code="mixed"):
    """UTF-8 text with ``part`` (whole lines) inserted between two halves of ``host``."""
    lines = host.splitlines(keepends=True)
    half = len(lines) // 2
    before = "".join(lines[:half]).encode()
    after = "".join(lines[half:]).encode()
    data = before + part + after
    a, b = len(before), len(before) + len(part)
    region = (a, b, *label) if isinstance(label, tuple) else (a, b, label)
    return Case(name, data, code, [(0, a, "utf-8"), region, (b, len(data), "utf-8")])


def double_encoded(text: str, via: str) -> bytes:
    return text.encode("utf-8").decode(via).encode("utf-8")


def cases() -> list[Case]:
    out = []
    ascii_text = EN.encode()
    multi = MULTI.encode()
    out.append(Case("ascii", ascii_text, "valid", [(0, len(ascii_text), "utf-8")]))
    out.append(Case("utf8_multilingual", multi, "valid", [(0, len(multi), "utf-8")]))
    bom = b"\xef\xbb\xbf" + multi
    out.append(Case("utf8_bom", bom, "valid_bom", [(0, len(bom), "utf-8")]))
    # Legacy charsets, whole files.
    out.append(whole("fr_latin1", FR * 3, "iso8859-1", region="cp1252"))
    out.append(whole("fr_cp1252", FR_TYPO * 3, "cp1252"))
    out.append(whole("de_cp1252", DE * 3, "cp1252"))
    out.append(whole("de_latin1", (DE * 3).replace("„", '"').replace("“", '"'), "iso8859-1",
                     region="cp1252"))
    out.append(whole("es_latin1", ES * 3, "iso8859-1", region="cp1252"))
    out.append(whole("pl_cp1250", PL * 3, "cp1250"))
    out.append(whole("pl_iso8859_2", PL * 3, "iso8859-2"))
    out.append(whole("cs_cp1250", CS * 3, "cp1250"))
    out.append(whole("ru_cp1251", RU * 3, "cp1251"))
    out.append(whole("ru_koi8_r", RU * 3, "koi8-r"))
    out.append(whole("ru_cp866", RU * 3, "cp866"))
    out.append(whole("ru_iso8859_5", RU * 3, "iso8859-5"))
    out.append(whole("el_iso8859_7", EL * 3, "iso8859-7", region="cp1253"))
    out.append(whole("ja_shift_jis", JA * 3, "shift_jis", region="cp932"))
    out.append(whole("ja_euc_jp", JA * 3, "euc_jp"))
    out.append(whole("zh_gbk", ZH * 3, "gbk", region="gb18030"))
    out.append(whole("zh_big5", ZH_TW * 3, "big5", region="big5hkscs"))
    out.append(whole("ko_euc_kr", KO * 3, "euc_kr", region="cp949"))
    # UTF-16/32, with and without a BOM.
    for enc, code in (("utf-16-le", "utf16"), ("utf-16-be", "utf16"), ("utf-32-le", "utf32")):
        data = MULTI.encode(enc)
        out.append(Case(f"{enc}_nobom", data, code, [(0, len(data), enc)]))
        bom_data = "\ufeff".encode(enc) + data
        out.append(Case(f"{enc}_bom", bom_data, code, [(0, len(bom_data), enc)]))
    # Truncated by the end of the data.
    smile = "ok 😀".encode()[:-1]
    out.append(Case("smile_cut_1", smile, "truncated_end", [(0, len(smile), "utf-8")]))
    de_cut = (DE * 2 + "Schöne Grüße 😀").encode()[:-1]
    out.append(Case("german_cut_1", de_cut, "truncated_end", [(0, len(de_cut), "utf-8")]))
    euro_cut = (RU + "Цена 10 €").encode()[:-2]
    out.append(Case("russian_cut_2", euro_cut, "truncated_end", [(0, len(euro_cut), "utf-8")]))
    # Mixed: a paragraph in another charset inside UTF-8 text.
    host = EN + DE + FR + EN
    out.append(inserted("utf8_with_cp1252", host, FR_TYPO.encode("cp1252"), "cp1252"))
    out.append(inserted("utf8_with_latin1", host, (ES * 2).encode("latin-1"), "cp1252"))
    out.append(inserted("utf8_with_cp1251", host, (RU * 2).encode("cp1251"), "cp1251"))
    out.append(inserted("utf8_with_koi8_r", host, (RU * 2).encode("koi8-r"), "koi8-r"))
    out.append(inserted("utf8_with_shift_jis", host, (JA * 2).encode("shift_jis"), "cp932"))
    out.append(inserted("utf8_with_mojibake", host, double_encoded(FR * 2, "cp1252"),
                        ("mojibake", "cp1252")))
    out.append(inserted("utf8_with_mojibake_cp1251", host, double_encoded(RU * 2, "cp1251"),
                        ("mojibake", "cp1251")))
    # A legacy file continued in UTF-8 (a migration half done).
    old = (DE * 2).encode("cp1252")
    new = (DE * 2).encode()
    out.append(Case("cp1252_then_utf8", old + new, "mixed",
                    [(0, len(old), "cp1252"), (len(old), len(old) + len(new), "utf-8")]))
    # Double encoding throughout.
    moji = double_encoded(FR * 2, "cp1252")
    out.append(Case("mojibake_whole", moji, "mojibake", [(0, len(moji), "mojibake", "cp1252")]))
    # Logs with a binary blob in the middle.
    log = log_lines(400)
    half = log.index("\n", len(log) // 2) + 1
    b = blob(6144)
    data = log[:half].encode() + b + log[half:].encode()
    out.append(Case("log_with_blob", data, "mixed",
                    [(0, half, "utf-8"), (half, half + len(b), "binary"),
                     (half + len(b), len(data), "utf-8")]))
    ulog = log_lines(400, unicode=True)
    half = ulog.encode().index(b"\n", len(ulog.encode()) // 2) + 1
    enc = ulog.encode()
    data = enc[:half] + b + enc[half:]
    out.append(Case("utf8_log_with_blob", data, "mixed",
                    [(0, half, "utf-8"), (half, half + len(b), "binary"),
                     (half + len(b), len(data), "utf-8")]))
    rnd = blob(50000, seed=3)
    out.append(Case("random_bytes", rnd, "binary", [(0, len(rnd), "binary")]))
    # Short Western text with symbols (© ° ½ are not letters): the bundled latin1.txt.
    short = ("Legacy Latin-1 text, not UTF-8: café crème brûlée, © 2024, 10 °C, ½ cup, "
             "naïve\n").encode("latin-1")
    out.append(Case("short_latin1_symbols", short, "legacy_charset",
                    [(0, len(short), "cp1252")]))
    # UTF-8 with scattered damage is UTF-8 with problems, not a mixture.
    rng = random.Random(5)
    damaged = bytearray((EN * 40).encode())
    for i in range(0, len(damaged) - 1000, 1000):
        damaged[i + rng.randrange(1000)] = rng.randrange(0x80, 0x100)
    damaged = bytes(damaged)
    out.append(Case("utf8_random_damage", damaged, "problems", [(0, len(damaged), "utf-8")]))
    return out


CASES = cases()
