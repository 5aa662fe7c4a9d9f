"""The same four subjects (algebra, botany, printing, baking) in 34 languages, 11 scripts.

Each entry: language -> (script, {subject: (document, question)}).  Written
for these tests; the questions use the words the documents use (inflected
as a writer of the language would), which is what word matching can find.
Every Latin-script printing document names Gutenberg, for the shared-name
test.
"""

from __future__ import annotations

SUBJECTS = ("algebra", "botany", "printing", "baking")

LANGUAGES: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {
    "en": (
        "latin",
        {
            "algebra": (
                "Algebra studies equations and variables; a polynomial equation is solved by factoring.",
                "polynomial equations and variables",
            ),
            "botany": (
                "Botany studies plants: their leaves, roots, flowers and photosynthesis.",
                "plants leaves roots photosynthesis",
            ),
            "printing": (
                "Gutenberg's printing press pressed ink from movable type onto paper.",
                "printing press movable type ink",
            ),
            "baking": ("Baking bread needs flour, yeast, water and a hot oven.", "bread flour yeast oven"),
        },
    ),
    "es": (
        "latin",
        {
            "algebra": (
                "El álgebra estudia ecuaciones y variables; una ecuación polinómica se resuelve factorizando.",
                "ecuaciones variables polinómica",
            ),
            "botany": (
                "La botánica estudia las plantas: sus hojas, raíces, flores y la fotosíntesis.",
                "plantas hojas raíces fotosíntesis",
            ),
            "printing": (
                "La imprenta de Gutenberg transfería tinta desde tipos móviles al papel.",
                "imprenta tinta tipos móviles",
            ),
            "baking": (
                "Hornear pan requiere harina, levadura, agua y un horno caliente.",
                "pan harina levadura horno",
            ),
        },
    ),
    "pt": (
        "latin",
        {
            "algebra": (
                "A álgebra estuda equações e variáveis; uma equação polinomial resolve-se por fatoração.",
                "equações variáveis polinomial",
            ),
            "botany": (
                "A botânica estuda as plantas: folhas, raízes, flores e a fotossíntese.",
                "plantas folhas raízes fotossíntese",
            ),
            "printing": (
                "A prensa de Gutenberg transferia tinta dos tipos móveis para o papel.",
                "prensa tinta tipos móveis",
            ),
            "baking": (
                "Assar pão exige farinha, fermento, água e um forno quente.",
                "pão farinha fermento forno",
            ),
        },
    ),
    "fr": (
        "latin",
        {
            "algebra": (
                "L'algèbre étudie les équations et les variables ; une équation polynomiale se résout par factorisation.",
                "équations variables polynomiale",
            ),
            "botany": (
                "La botanique étudie les plantes : feuilles, racines, fleurs et photosynthèse.",
                "plantes feuilles racines photosynthèse",
            ),
            "printing": (
                "La presse de Gutenberg transférait l'encre des caractères mobiles sur le papier.",
                "presse encre caractères mobiles",
            ),
            "baking": (
                "Cuire du pain demande de la farine, de la levure, de l'eau et un four chaud.",
                "pain farine levure four",
            ),
        },
    ),
    "it": (
        "latin",
        {
            "algebra": (
                "L'algebra studia equazioni e variabili; un'equazione polinomiale si risolve fattorizzando.",
                "equazioni variabili polinomiale",
            ),
            "botany": (
                "La botanica studia le piante: foglie, radici, fiori e fotosintesi.",
                "piante foglie radici fotosintesi",
            ),
            "printing": (
                "La stampa di Gutenberg trasferiva l'inchiostro dai caratteri mobili alla carta.",
                "stampa inchiostro caratteri mobili",
            ),
            "baking": (
                "Cuocere il pane richiede farina, lievito, acqua e un forno caldo.",
                "pane farina lievito forno",
            ),
        },
    ),
    "de": (
        "latin",
        {
            "algebra": (
                "Die Algebra untersucht Gleichungen und Variablen; eine Polynomgleichung löst man durch Faktorisieren.",
                "Gleichungen Variablen Polynomgleichung",
            ),
            "botany": (
                "Die Botanik untersucht Pflanzen: Blätter, Wurzeln, Blüten und Photosynthese.",
                "Pflanzen Blätter Wurzeln Photosynthese",
            ),
            "printing": (
                "Gutenbergs Druckerpresse übertrug Druckfarbe von beweglichen Lettern auf Papier.",
                "Druckerpresse Druckfarbe beweglichen Lettern",
            ),
            "baking": (
                "Brot backen braucht Mehl, Hefe, Wasser und einen heißen Ofen.",
                "Brot Mehl Hefe Ofen",
            ),
        },
    ),
    "nl": (
        "latin",
        {
            "algebra": (
                "Algebra bestudeert vergelijkingen en variabelen; een veeltermvergelijking los je op door ontbinden.",
                "vergelijkingen variabelen veeltermvergelijking",
            ),
            "botany": (
                "Plantkunde bestudeert planten: bladeren, wortels, bloemen en fotosynthese.",
                "planten bladeren wortels fotosynthese",
            ),
            "printing": (
                "De drukpers van Gutenberg bracht inkt van losse letters over op papier.",
                "drukpers inkt losse letters",
            ),
            "baking": ("Brood bakken vraagt meel, gist, water en een hete oven.", "brood meel gist oven"),
        },
    ),
    "sv": (
        "latin",
        {
            "algebra": (
                "Algebra studerar ekvationer och variabler; en polynomekvation löses genom faktorisering.",
                "ekvationer variabler polynomekvation",
            ),
            "botany": (
                "Botanik studerar växter: blad, rötter, blommor och fotosyntes.",
                "växter blad rötter fotosyntes",
            ),
            "printing": (
                "Gutenbergs tryckpress överförde tryckfärg från lösa typer till papper.",
                "tryckpress tryckfärg lösa typer",
            ),
            "baking": ("Att baka bröd kräver mjöl, jäst, vatten och en het ugn.", "bröd mjöl jäst ugn"),
        },
    ),
    "da": (
        "latin",
        {
            "algebra": (
                "Algebra studerer ligninger og variabler; en polynomiumsligning løses ved faktorisering.",
                "ligninger variabler polynomiumsligning",
            ),
            "botany": (
                "Botanik studerer planter: blade, rødder, blomster og fotosyntese.",
                "planter blade rødder fotosyntese",
            ),
            "printing": (
                "Gutenbergs trykpresse overførte trykfarve fra løse typer til papir.",
                "trykpresse trykfarve løse typer",
            ),
            "baking": ("At bage brød kræver mel, gær, vand og en varm ovn.", "brød mel gær ovn"),
        },
    ),
    "no": (
        "latin",
        {
            "algebra": (
                "Algebra studerer likninger og variabler; en polynomlikning løses ved faktorisering.",
                "likninger variabler polynomlikning",
            ),
            "botany": (
                "Botanikk studerer planter: blader, røtter, blomster og fotosyntese.",
                "planter blader røtter fotosyntese",
            ),
            "printing": (
                "Gutenbergs trykkpresse overførte trykksverte fra løse typer til papir.",
                "trykkpresse trykksverte løse typer",
            ),
            "baking": ("Å bake brød krever mel, gjær, vann og en varm stekeovn.", "brød mel gjær stekeovn"),
        },
    ),
    "fi": (
        "latin",
        {
            "algebra": (
                "Algebra tutkii yhtälöitä ja muuttujia; polynomiyhtälö ratkaistaan tekijöihin jakamalla.",
                "yhtälöitä muuttujia polynomiyhtälö",
            ),
            "botany": (
                "Kasvitiede tutkii kasveja: lehtiä, juuria, kukkia ja yhteyttämistä.",
                "kasveja lehtiä juuria yhteyttämistä",
            ),
            "printing": (
                "Gutenbergin painokone siirsi painomusteen irtokirjasimista paperille.",
                "painokone painomusteen irtokirjasimista",
            ),
            "baking": (
                "Leivän leipominen vaatii jauhoja, hiivaa, vettä ja kuuman uunin.",
                "leivän jauhoja hiivaa uunin",
            ),
        },
    ),
    "pl": (
        "latin",
        {
            "algebra": (
                "Algebra bada równania i zmienne; równanie wielomianowe rozwiązuje się przez rozkład na czynniki.",
                "równania zmienne wielomianowe",
            ),
            "botany": (
                "Botanika bada rośliny: liście, korzenie, kwiaty i fotosyntezę.",
                "rośliny liście korzenie fotosyntezę",
            ),
            "printing": (
                "Prasa drukarska Gutenberga przenosiła farbę z ruchomych czcionek na papier.",
                "prasa drukarska farbę ruchomych czcionek",
            ),
            "baking": (
                "Pieczenie chleba wymaga mąki, drożdży, wody i gorącego pieca.",
                "chleba mąki drożdży pieca",
            ),
        },
    ),
    "cs": (
        "latin",
        {
            "algebra": (
                "Algebra zkoumá rovnice a proměnné; polynomiální rovnice se řeší rozkladem na součin.",
                "rovnice proměnné polynomiální",
            ),
            "botany": (
                "Botanika zkoumá rostliny: listy, kořeny, květy a fotosyntézu.",
                "rostliny listy kořeny fotosyntézu",
            ),
            "printing": (
                "Gutenbergův knihtisk přenášel tiskařskou barvu z pohyblivých liter na papír.",
                "knihtisk tiskařskou barvu pohyblivých liter",
            ),
            "baking": (
                "Pečení chleba vyžaduje mouku, droždí, vodu a horkou troubu.",
                "chleba mouku droždí troubu",
            ),
        },
    ),
    "hu": (
        "latin",
        {
            "algebra": (
                "Az algebra egyenleteket és változókat vizsgál; a polinomegyenletet szorzattá alakítással oldjuk meg.",
                "egyenleteket változókat polinomegyenletet",
            ),
            "botany": (
                "A növénytan a növényeket vizsgálja: leveleket, gyökereket, virágokat és a fotoszintézist.",
                "növényeket leveleket gyökereket fotoszintézist",
            ),
            "printing": (
                "Gutenberg nyomdagépe a mozgatható betűkről vitte át a festéket a papírra.",
                "nyomdagépe mozgatható betűkről festéket",
            ),
            "baking": (
                "A kenyérsütéshez liszt, élesztő, víz és forró sütő kell.",
                "kenyérsütéshez liszt élesztő sütő",
            ),
        },
    ),
    "ro": (
        "latin",
        {
            "algebra": (
                "Algebra studiază ecuații și variabile; o ecuație polinomială se rezolvă prin factorizare.",
                "ecuații variabile polinomială",
            ),
            "botany": (
                "Botanica studiază plantele: frunze, rădăcini, flori și fotosinteza.",
                "plantele frunze rădăcini fotosinteza",
            ),
            "printing": (
                "Presa lui Gutenberg transfera cerneala de pe literele mobile pe hârtie.",
                "presa cerneala literele mobile",
            ),
            "baking": (
                "Coacerea pâinii cere făină, drojdie, apă și un cuptor fierbinte.",
                "pâinii făină drojdie cuptor",
            ),
        },
    ),
    "tr": (
        "latin",
        {
            "algebra": (
                "Cebir denklemleri ve değişkenleri inceler; polinom denklemi çarpanlara ayırarak çözülür.",
                "denklemleri değişkenleri polinom",
            ),
            "botany": (
                "Botanik bitkileri inceler: yaprakları, kökleri, çiçekleri ve fotosentezi.",
                "bitkileri yaprakları kökleri fotosentezi",
            ),
            "printing": (
                "Gutenberg'in matbaası mürekkebi hareketli harflerden kâğıda aktarırdı.",
                "matbaası mürekkebi hareketli harflerden",
            ),
            "baking": ("Ekmek pişirmek un, maya, su ve sıcak bir fırın ister.", "ekmek un maya fırın"),
        },
    ),
    "id": (
        "latin",
        {
            "algebra": (
                "Aljabar mempelajari persamaan dan variabel; persamaan polinomial diselesaikan dengan pemfaktoran.",
                "persamaan variabel polinomial",
            ),
            "botany": (
                "Botani mempelajari tumbuhan: daun, akar, bunga, dan fotosintesis.",
                "tumbuhan daun akar fotosintesis",
            ),
            "printing": (
                "Mesin cetak Gutenberg memindahkan tinta dari huruf lepas ke kertas.",
                "mesin cetak tinta huruf lepas",
            ),
            "baking": (
                "Memanggang roti membutuhkan tepung, ragi, air, dan oven panas.",
                "roti tepung ragi oven",
            ),
        },
    ),
    "vi": (
        "latin",
        {
            "algebra": (
                "Đại số nghiên cứu phương trình và biến số; phương trình đa thức được giải bằng phân tích nhân tử.",
                "phương trình biến số đa thức",
            ),
            "botany": (
                "Thực vật học nghiên cứu cây cối: lá, rễ, hoa và quang hợp.",
                "thực vật lá rễ quang hợp",
            ),
            "printing": ("Máy in của Gutenberg chuyển mực từ chữ rời sang giấy.", "máy in mực chữ rời"),
            "baking": ("Nướng bánh mì cần bột mì, men, nước và lò nóng.", "bánh mì bột men lò"),
        },
    ),
    "ca": (
        "latin",
        {
            "algebra": (
                "L'àlgebra estudia equacions i variables; una equació polinòmica es resol factoritzant.",
                "equacions variables polinòmica",
            ),
            "botany": (
                "La botànica estudia les plantes: fulles, arrels, flors i fotosíntesi.",
                "plantes fulles arrels fotosíntesi",
            ),
            "printing": (
                "La impremta de Gutenberg transferia tinta dels tipus mòbils al paper.",
                "impremta tinta tipus mòbils",
            ),
            "baking": ("Coure pa necessita farina, llevat, aigua i un forn calent.", "pa farina llevat forn"),
        },
    ),
    "ru": (
        "cyrillic",
        {
            "algebra": (
                "Алгебра изучает уравнения и переменные; многочленное уравнение решают разложением на множители.",
                "уравнения переменные многочленное",
            ),
            "botany": (
                "Ботаника изучает растения: листья, корни, цветы и фотосинтез.",
                "растения листья корни фотосинтез",
            ),
            "printing": (
                "Печатный станок Гутенберга переносил краску с подвижных литер на бумагу.",
                "печатный станок краску подвижных литер",
            ),
            "baking": (
                "Для выпечки хлеба нужны мука, дрожжи, вода и горячая печь.",
                "хлеба мука дрожжи печь",
            ),
        },
    ),
    "uk": (
        "cyrillic",
        {
            "algebra": (
                "Алгебра вивчає рівняння та змінні; многочленне рівняння розв'язують розкладом на множники.",
                "рівняння змінні многочленне",
            ),
            "botany": (
                "Ботаніка вивчає рослини: листя, коріння, квіти та фотосинтез.",
                "рослини листя коріння фотосинтез",
            ),
            "printing": (
                "Друкарський верстат Гутенберга переносив фарбу з рухомих літер на папір.",
                "друкарський верстат фарбу рухомих літер",
            ),
            "baking": (
                "Для випікання хліба потрібні борошно, дріжджі, вода та гаряча піч.",
                "хліба борошно дріжджі піч",
            ),
        },
    ),
    "bg": (
        "cyrillic",
        {
            "algebra": (
                "Алгебрата изучава уравнения и променливи; полиномно уравнение се решава чрез разлагане.",
                "уравнения променливи полиномно",
            ),
            "botany": (
                "Ботаниката изучава растенията: листа, корени, цветове и фотосинтеза.",
                "растенията листа корени фотосинтеза",
            ),
            "printing": (
                "Печатарската преса на Гутенберг пренасяла мастило от подвижни букви върху хартия.",
                "печатарската преса мастило подвижни букви",
            ),
            "baking": ("Печенето на хляб изисква брашно, мая, вода и гореща фурна.", "хляб брашно мая фурна"),
        },
    ),
    "sr": (
        "cyrillic",
        {
            "algebra": (
                "Алгебра проучава једначине и променљиве; полиномска једначина се решава растављањем на чиниоце.",
                "једначине променљиве полиномска",
            ),
            "botany": (
                "Ботаника проучава биљке: листове, корење, цветове и фотосинтезу.",
                "биљке листове корење фотосинтезу",
            ),
            "printing": (
                "Гутенбергова штампарска преса преносила је боју са покретних слова на папир.",
                "штампарска преса боју покретних слова",
            ),
            "baking": (
                "За печење хлеба потребни су брашно, квасац, вода и врела пећ.",
                "хлеба брашно квасац пећ",
            ),
        },
    ),
    "el": (
        "greek",
        {
            "algebra": (
                "Η άλγεβρα μελετά εξισώσεις και μεταβλητές· μια πολυωνυμική εξίσωση λύνεται με παραγοντοποίηση.",
                "εξισώσεις μεταβλητές πολυωνυμική",
            ),
            "botany": (
                "Η βοτανική μελετά τα φυτά: φύλλα, ρίζες, άνθη και φωτοσύνθεση.",
                "φυτά φύλλα ρίζες φωτοσύνθεση",
            ),
            "printing": (
                "Το τυπογραφικό πιεστήριο μετέφερε μελάνι από κινητά στοιχεία στο χαρτί.",
                "τυπογραφικό πιεστήριο μελάνι κινητά στοιχεία",
            ),
            "baking": (
                "Το ψήσιμο του ψωμιού χρειάζεται αλεύρι, μαγιά, νερό και ζεστό φούρνο.",
                "ψωμιού αλεύρι μαγιά φούρνο",
            ),
        },
    ),
    "ar": (
        "arabic",
        {
            "algebra": (
                "يدرس الجبر المعادلات والمتغيرات، وتحل المعادلة الحدودية بالتحليل إلى عوامل.",
                "المعادلات والمتغيرات الحدودية",
            ),
            "botany": (
                "يدرس علم النبات النباتات: الأوراق والجذور والأزهار والتمثيل الضوئي.",
                "النباتات الأوراق والجذور الضوئي",
            ),
            "printing": (
                "نقلت مطبعة غوتنبرغ الحبر من الحروف المتحركة إلى الورق.",
                "مطبعة الحبر الحروف المتحركة",
            ),
            "baking": ("يحتاج خبز الخبز إلى الدقيق والخميرة والماء وفرن ساخن.", "الدقيق والخميرة فرن"),
        },
    ),
    "fa": (
        "arabic",
        {
            "algebra": (
                "جبر معادله‌ها و متغیرها را بررسی می‌کند؛ معادله چندجمله‌ای با تجزیه حل می‌شود.",
                "معادله‌ها متغیرها چندجمله‌ای",
            ),
            "botany": (
                "گیاه‌شناسی گیاهان را بررسی می‌کند: برگ‌ها، ریشه‌ها، گل‌ها و فتوسنتز.",
                "گیاهان برگ‌ها ریشه‌ها فتوسنتز",
            ),
            "printing": (
                "دستگاه چاپ گوتنبرگ جوهر را از حروف متحرک به کاغذ منتقل می‌کرد.",
                "دستگاه چاپ جوهر حروف متحرک",
            ),
            "baking": ("پختن نان به آرد، مخمر، آب و تنور داغ نیاز دارد.", "نان آرد مخمر تنور"),
        },
    ),
    "he": (
        "hebrew",
        {
            "algebra": (
                "האלגברה חוקרת משוואות ומשתנים; משוואה פולינומית נפתרת בפירוק לגורמים.",
                "משוואות ומשתנים פולינומית",
            ),
            "botany": (
                "הבוטניקה חוקרת צמחים: עלים, שורשים, פרחים ופוטוסינתזה.",
                "צמחים עלים שורשים ופוטוסינתזה",
            ),
            "printing": (
                "מכונת הדפוס של גוטנברג העבירה דיו מאותיות נעות אל הנייר.",
                "מכונת הדפוס דיו מאותיות נעות",
            ),
            "baking": ("אפיית לחם דורשת קמח, שמרים, מים ותנור חם.", "לחם קמח שמרים ותנור"),
        },
    ),
    "hi": (
        "devanagari",
        {
            "algebra": (
                "बीजगणित समीकरणों और चरों का अध्ययन करता है; बहुपद समीकरण गुणनखंड से हल होता है।",
                "समीकरणों चरों बहुपद",
            ),
            "botany": (
                "वनस्पति विज्ञान पौधों का अध्ययन करता है: पत्तियाँ, जड़ें, फूल और प्रकाश संश्लेषण।",
                "पौधों पत्तियाँ जड़ें संश्लेषण",
            ),
            "printing": ("गुटेनबर्ग की छपाई मशीन चल अक्षरों से स्याही कागज़ पर उतारती थी।", "छपाई मशीन स्याही अक्षरों"),
            "baking": ("रोटी सेंकने के लिए आटा, खमीर, पानी और गरम ओवन चाहिए।", "आटा खमीर ओवन"),
        },
    ),
    "bn": (
        "bengali",
        {
            "algebra": (
                "বীজগণিত সমীকরণ ও চলরাশি নিয়ে কাজ করে; বহুপদী সমীকরণ উৎপাদকে বিশ্লেষণ করে সমাধান করা হয়।",
                "সমীকরণ চলরাশি বহুপদী",
            ),
            "botany": ("উদ্ভিদবিদ্যা গাছপালা নিয়ে পড়ে: পাতা, শিকড়, ফুল ও সালোকসংশ্লেষণ।", "গাছপালা পাতা শিকড় সালোকসংশ্লেষণ"),
            "printing": ("গুটেনবার্গের ছাপাখানা চলমান অক্ষর থেকে কাগজে কালি বসাত।", "ছাপাখানা চলমান অক্ষর কালি"),
            "baking": ("রুটি সেঁকতে ময়দা, খামির, পানি আর গরম চুলা লাগে।", "রুটি ময়দা খামির চুলা"),
        },
    ),
    "ta": (
        "tamil",
        {
            "algebra": (
                "இயற்கணிதம் சமன்பாடுகளையும் மாறிகளையும் படிக்கிறது; பல்லுறுப்புச் சமன்பாடு காரணியாக்கலால் தீர்க்கப்படுகிறது.",
                "சமன்பாடுகளையும் மாறிகளையும் பல்லுறுப்புச்",
            ),
            "botany": (
                "தாவரவியல் தாவரங்களைப் படிக்கிறது: இலைகள், வேர்கள், பூக்கள் மற்றும் ஒளிச்சேர்க்கை.",
                "தாவரங்களைப் இலைகள் வேர்கள் ஒளிச்சேர்க்கை",
            ),
            "printing": (
                "குட்டன்பர்க்கின் அச்சு இயந்திரம் நகரும் எழுத்துகளிலிருந்து மையைத் தாளுக்கு மாற்றியது.",
                "அச்சு இயந்திரம் மையைத் எழுத்துகளிலிருந்து",
            ),
            "baking": ("ரொட்டி சுட மாவு, ஈஸ்ட், தண்ணீர் மற்றும் சூடான அடுப்பு தேவை.", "ரொட்டி மாவு ஈஸ்ட் அடுப்பு"),
        },
    ),
    "th": (
        "thai",
        {
            "algebra": ("พีชคณิตศึกษาสมการและตัวแปร สมการพหุนามแก้ได้ด้วยการแยกตัวประกอบ", "สมการพหุนาม ตัวแปร"),
            "botany": ("พฤกษศาสตร์ศึกษาพืช ใบ ราก ดอก และการสังเคราะห์ด้วยแสง", "พืช ใบ ราก สังเคราะห์ด้วยแสง"),
            "printing": ("แท่นพิมพ์ของกูเทนแบร์กถ่ายหมึกจากตัวพิมพ์เคลื่อนที่ลงบนกระดาษ", "แท่นพิมพ์ หมึก ตัวพิมพ์เคลื่อนที่"),
            "baking": ("การอบขนมปังต้องใช้แป้ง ยีสต์ น้ำ และเตาอบที่ร้อน", "อบขนมปัง แป้ง ยีสต์ เตาอบ"),
        },
    ),
    "zh": (
        "han",
        {
            "algebra": ("代数研究方程和变量，多项式方程可以通过因式分解求解。", "多项式方程 变量"),
            "botany": ("植物学研究植物的叶子、根、花和光合作用。", "植物 叶子 光合作用"),
            "printing": ("古腾堡的印刷机把油墨从活字转印到纸上。", "印刷机 油墨 活字"),
            "baking": ("烤面包需要面粉、酵母、水和热烤箱。", "烤面包 面粉 酵母 烤箱"),
        },
    ),
    "ja": (
        "han",
        {
            "algebra": (
                "代数学は方程式と変数を研究し、多項式の方程式は因数分解で解ける。",
                "多項式 方程式 変数",
            ),
            "botany": ("植物学は植物の葉、根、花、光合成を研究する。", "植物 葉 根 光合成"),
            "printing": ("グーテンベルクの印刷機は活字からインクを紙に写した。", "印刷機 活字 インク"),
            "baking": (
                "パンを焼くには小麦粉、イースト、水、熱いオーブンが必要だ。",
                "パン 小麦粉 イースト オーブン",
            ),
        },
    ),
    "ko": (
        "hangul",
        {
            "algebra": (
                "대수학은 방정식과 변수를 연구하며, 다항식 방정식은 인수분해로 푼다.",
                "방정식 변수 다항식",
            ),
            "botany": ("식물학은 식물의 잎, 뿌리, 꽃, 광합성을 연구한다.", "식물 잎 뿌리 광합성"),
            "printing": ("구텐베르크의 인쇄기는 활자에서 잉크를 종이로 옮겼다.", "인쇄기 활자 잉크"),
            "baking": ("빵을 굽는 데에는 밀가루, 효모, 물, 뜨거운 오븐이 필요하다.", "빵 밀가루 효모 오븐"),
        },
    ),
}

SCRIPTS = {script for script, _ in LANGUAGES.values()}
