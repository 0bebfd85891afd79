"""The terminal's words: the message catalogue in Romanian and English, and ``Terminal``.

``table play`` (``table.cli.play``) says everything through a ``Terminal``:
messages from ``MESSAGES`` in the chosen language, counted nouns in their
grammatical forms, numbers with the language's decimal mark, and the engine's
reasons for refusing a move said in Romanian (``explain``).
"""

from __future__ import annotations

import re
import sys  # noqa: F401 - the doctests' streams
from typing import TextIO

# Keys ending in "_you" are the same message addressed to the person at the
# keyboard (second person), used against the computer; "{who}" is "" there
# and "Name, " when two people share the keyboard.
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "match": "match to {length}",
        "money": "money session",
        "game": "Game {n}",
        "score": "Score: {a}: {sa}, {b}: {sb} ({what})",
        "cube": "Cube: {value}, {owner}",
        "centred": "in the middle",
        "owned": "owned by {name}",
        "owned_you": "yours",
        "crawford": "Crawford game: no doubling",
        "side": "{mark} {name}: {pips}, {off} borne off, {bar} on the bar",
        "on_roll": " (to play)",
        "to_answer": " (to answer)",
        "rolled": " (rolled {d1}-{d2})",
        "ids": "GNU Backgammon ID: {id}",
        "opening": "Opening roll: {a} {da}, {b} {db}. {starter} starts with {d1}-{d2}.",
        "opening_you": "Opening roll: {a} {da}, {b} {db}. You start with {d1}-{d2}.",
        "to_roll": ("{who}your turn. Enter = roll, or: double, resign [single|gammon|backgammon], "
                    "hint, ? (help), quit"),
        "to_move": ("{who}you rolled {d1}-{d2}. Your move (e.g. 24/18 13/10); "
                    "hint = advice, list = legal plays, ? = help:"),
        "no_move": "{name} rolled {d1}-{d2} and cannot move.",
        "no_move_you": "You rolled {d1}-{d2} and cannot move.",
        "to_take": "{doubler} doubles to {value}. {who}take or drop?",
        "to_name_double": "{who}you played the 1 and the 2: choose the double to play, 1 to 6 (6 = 6-6):",
        "to_resign": "{resigner} resigns, offering you {level} ({points}). {who}accept or reject?",
        "plays": "Legal plays:",
        "no_plays": "No legal play.",
        "unknown": "Not understood: {text!r}. Type ? for help.",
        "illegal": "Not allowed: {error}",
        "won_game": "{name} wins the game: {how}, {points}.",
        "won_game_you": "You win the game: {how}, {points}.",
        "won_match": "{name} wins the match {sa}-{sb}.",
        "won_match_you": "You win the match {sa}-{sb}!",
        "saved": "Match saved to {path}.",
        "save_failed": "Could not save the match to {path} ({error}). Here is the record; copy it:",
        "bye": "Match stopped.",
        "single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon",
        "how_checkers": "all checkers borne off", "how_drop": "the double was dropped",
        "how_resign": "resignation accepted",
        "rejected": "Resignation rejected: play on.",
        "points_one": "{n} point", "points_other": "{n} points",
        "pips_one": "{n} pip", "pips_other": "{n} pips",
        "plays_one": "{n} play", "plays_other": "{n} plays",
        "you": "You", "computer": "Computer ({level})",
        "easy": "easy", "medium": "medium", "hard": "hard",
        "bot_action": "{name} {action}.",
        "act_double": "doubles", "act_take": "takes", "act_drop": "drops",
        "act_resign": "resigns",
        "act_accept_resignation": "accepts the resignation",
        "act_reject_resignation": "rejects the resignation",
        "act_move": "rolled {d1}-{d2} and plays {play}",
        "act_name_double": "chooses the double {n}-{n}",
        "act_pass": "rolled {d1}-{d2} and cannot move",
        "hint_title": "Advice ({level}), best {n} of {total}, cubeless equity for you:",
        "hint_play": "{rank:>3}. {play:<22} equity {equity}   win {win}, gammon {gammon}, lose a gammon {lgammon}",
        "hint_double": "Advice ({level}): double. {detail}",
        "hint_no_double": "Advice ({level}): do not double, roll. {detail}",
        "hint_roll": "No cube decision now: roll the dice.",
        "hint_take": "Advice ({level}): take. {detail}",
        "hint_drop": "Advice ({level}): drop. {detail}",
        "hint_cube_money": ("Your equity in points, with the cube: no double {nd}, "
                            "double and take {dt}, double and drop {dp}."),
        "hint_cube_match": ("Your chances to win the match: no double {nd}, double and take {dt}, "
                            "double and drop {dp}."),
        "hint_answer_money": "Your equity in points, with the cube: take {t}, drop {d}.",
        "hint_answer_match": "Your chances to win the match: take {t}, drop {d}.",
        "hint_accept": "Advice ({level}): accept the resignation.",
        "hint_reject": "Advice ({level}): reject the resignation.",
        # Plakoto, Fevga, Portes and the Tavli match.
        "side_pinned": "{mark} {name}: {pips}, {off} borne off, {pinned} pinned",
        "side_greek": "{mark} {name}: {pips}, {off} borne off",
        "pins_legend": "Lower-case x and o: a pinned checker, under the checkers that pin it.",
        "same_way": "Both sides move the same way round: O's 24-point is your 12-point.",
        "position_id": "Position ID: {id}",
        "opening_greek": "Opening roll: {a} {da}, {b} {db}. {starter} starts and rolls.",
        "opening_greek_you": "Opening roll: {a} {da}, {b} {db}. You start: roll.",
        "game_of": "Game {n}: {game}",
        "starts": "{name} won the last game and starts.",
        "starts_you": "You won the last game and start.",
        "to_roll_greek": "{who}your turn. Enter = roll, or: resign [single|gammon], ? (help), quit",
        "to_move_greek": ("{who}you rolled {d1}-{d2}. Your move (e.g. 24/18 13/10); "
                          "list = legal plays, ? = help:"),
        "no_advice": "No computer advice for {game} yet.",
        "how_mother": "the mother checker pinned",
        "draw_game": "Both mothers are pinned: the game is a draw and scores nothing.",
        "help": ("Commands: Enter or roll = roll the dice; double; take; drop; "
                 "resign [single|gammon|backgammon]; accept, reject (a resignation); "
                 "hint [N] = the computer's advice (its N best plays); list = every legal play; "
                 "? = this help; quit. "
                 "Moves in standard notation, from your side of the board: "
                 "24/18 13/10, bar/22*, 6/off(2)."),
    },
    "ro": {
        "match": "partidă la {length}",
        "money": "joc fără limită de puncte",
        "game": "Jocul {n}",
        "score": "Scor: {a}: {sa}, {b}: {sb} ({what})",
        "cube": "Cubul: {value}, {owner}",
        "centred": "la mijloc",
        "owned": "la {name}",
        "owned_you": "la tine",
        "crawford": "Jocul Crawford: nu se poate dubla.",
        "side": "{mark} {name}: {pips}, scoase: {off}, pe bară: {bar}",
        "on_roll": " (la mutare)",
        "to_answer": " (de răspuns)",
        "rolled": " (zaruri: {d1}-{d2})",
        "ids": "ID GNU Backgammon: {id}",
        "opening": ("Zarurile de început: {a} – {da}, {b} – {db}. "
                    "Începe {starter}, cu {d1}-{d2}."),
        "opening_you": "Zarurile de început: {a} – {da}, {b} – {db}. Începi tu, cu {d1}-{d2}.",
        "to_roll": ("{who}e rândul tău. Enter = arunci zarurile; sau: dublez, "
                    "abandon [simplu|marț|triplu], sfat, ? (ajutor), ieși "
                    "(merg și comenzile în engleză)"),
        "to_move": ("{who}ai dat {d1}-{d2}. Mută (de ex. 24/18 13/10); "
                    "sfat, listă = mutările posibile, ? = ajutor:"),
        "no_move": "{name} a dat {d1}-{d2} și nu poate muta.",
        "no_move_you": "Ai dat {d1}-{d2} și nu poți muta.",
        "to_take": "{doubler} dublează miza la {value}. {who}accepți sau refuzi? (accept / refuz)",
        "to_name_double": "{who}ai jucat 1 și 2: alege dubla pe care o joci, de la 1 la 6 (6 = 6-6):",
        "to_resign": ("{resigner} abandonează și îți oferă {level} ({points}). "
                      "{who}accepți sau refuzi? (accept / refuz)"),
        "plays": "Mutările posibile:",
        "no_plays": "Nicio mutare posibilă.",
        "unknown": "Nu am înțeles „{text}”. Scrie ? pentru ajutor.",
        "illegal": "Nu se poate: {error}",
        "won_game": "{name} câștigă jocul: {how}, {points}.",
        "won_game_you": "Ai câștigat jocul: {how}, {points}.",
        "won_match": "{name} câștigă partida cu {sa}-{sb}.",
        "won_match_you": "Ai câștigat partida cu {sa}-{sb}!",
        "saved": "Partida a fost salvată în {path}.",
        "save_failed": ("Partida nu a putut fi salvată în {path} ({error}). "
                        "Iat-o mai jos; copiaz-o:"),
        "bye": "Partida a fost întreruptă.",
        "single": "un joc simplu", "gammon": "un marț", "backgammon": "un marț triplu",
        "how_checkers": "toate piesele scoase", "how_drop": "dublarea a fost refuzată",
        "how_resign": "abandon acceptat",
        "rejected": "Abandon refuzat: jocul continuă.",
        "points_one": "{n} punct", "points_few": "{n} puncte", "points_other": "{n} de puncte",
        "pips_one": "{n} pip", "pips_few": "{n} pipuri", "pips_other": "{n} de pipuri",
        "plays_one": "{n} mutare", "plays_few": "{n} mutări", "plays_other": "{n} de mutări",
        "you": "Tu", "computer": "Calculatorul ({level})",
        "easy": "Ușor", "medium": "Mediu", "hard": "Greu",
        "bot_action": "{name} {action}.",
        "act_double": "dublează miza", "act_take": "acceptă dublarea", "act_drop": "refuză dublarea",
        "act_resign": "abandonează",
        "act_accept_resignation": "acceptă abandonul",
        "act_reject_resignation": "refuză abandonul",
        "act_move": "a dat {d1}-{d2} și a mutat {play}",
        "act_name_double": "alege dubla {n}-{n}",
        "act_pass": "a dat {d1}-{d2} și nu poate muta",
        "hint_title": ("Sfatul calculatorului ({level}): primele {n} din {total}, "
                       "cu echitatea ta fără cub:"),
        "hint_play": ("{rank:>3}. {play:<22} echitate {equity}   câștig {win}, marț dat {gammon}, "
                      "marț luat {lgammon}"),
        "hint_double": "Sfatul ({level}): dublează. {detail}",
        "hint_no_double": "Sfatul ({level}): nu dubla, aruncă zarurile. {detail}",
        "hint_roll": "Acum nu ai nicio decizie de luat cu cubul: aruncă zarurile.",
        "hint_take": "Sfatul ({level}): acceptă dublarea. {detail}",
        "hint_drop": "Sfatul ({level}): refuză dublarea. {detail}",
        "hint_cube_money": ("Echitatea ta în puncte, cu cubul: fără dublare {nd}, "
                            "dublare acceptată {dt}, dublare refuzată {dp}."),
        "hint_cube_match": ("Șansele tale de a câștiga partida: fără dublare {nd}, "
                            "dublare acceptată {dt}, dublare refuzată {dp}."),
        "hint_answer_money": ("Echitatea ta în puncte, cu cubul: dacă accepți {t}, "
                              "dacă refuzi {d}."),
        "hint_answer_match": "Șansele tale de a câștiga partida: dacă accepți {t}, dacă refuzi {d}.",
        "hint_accept": "Sfatul ({level}): acceptă abandonul.",
        "hint_reject": "Sfatul ({level}): refuză abandonul.",
        "side_pinned": "{mark} {name}: {pips}, scoase: {off}, prinse: {pinned}",
        "side_greek": "{mark} {name}: {pips}, scoase: {off}",
        "pins_legend": "Literele mici x și o: o piesă prinsă, sub piesele care o țin.",
        "same_way": "Amândoi mută în același sens: punctul 24 al lui O este punctul tău 12.",
        "position_id": "ID-ul poziției: {id}",
        "opening_greek": ("Zarurile de început: {a} – {da}, {b} – {db}. "
                          "Începe {starter}, care aruncă din nou zarurile."),
        "opening_greek_you": ("Zarurile de început: {a} – {da}, {b} – {db}. "
                              "Începi tu: aruncă zarurile."),
        "game_of": "Jocul {n}: {game}",
        "starts": "{name} a câștigat jocul trecut și începe.",
        "starts_you": "Ai câștigat jocul trecut și începi.",
        "to_roll_greek": ("{who}e rândul tău. Enter = arunci zarurile; sau: abandon [simplu|marț], "
                          "? (ajutor), ieși (merg și comenzile în engleză)"),
        "to_move_greek": ("{who}ai dat {d1}-{d2}. Mută (de ex. 24/18 13/10); "
                          "listă = mutările posibile, ? = ajutor:"),
        "no_advice": "Calculatorul nu dă încă sfaturi la {game}.",
        "how_mother": "piesa-mamă a fost prinsă",
        "draw_game": "Amândouă piesele-mamă sunt prinse: jocul se termină la egalitate, fără puncte.",
        "help": ("Comenzi: Enter = arunci zarurile; dublez = dublezi miza; "
                 "accept / refuz = accepți sau refuzi dublarea ori abandonul; "
                 "abandon [simplu|marț|triplu] = abandonezi (joc simplu, marț, marț triplu); "
                 "sfat [N] = sfatul calculatorului (cele mai bune N mutări); "
                 "listă = toate mutările posibile; ? = acest ajutor; ieși = închizi partida. "
                 "Merg și comenzile în engleză (roll, double, take, drop, resign, hint, list, quit). "
                 "Mutările se scriu în notația obișnuită, cu numerele de pe partea ta a tablei: "
                 "24/18 13/10, bar/22*, 6/off(2)."),
    },
}


def plural_form(n: int, lang: str) -> str:
    """CLDR's plural category of a whole number: Romanian "one" (1), "few" (0, 2-19 and the
    numbers ending in 01-19) or "other" (the rest, which take "de": "20 de puncte"); English
    "one" or "other".

    >>> [plural_form(n, "ro") for n in (1, 2, 19, 20, 100, 101, 120)]
    ['one', 'few', 'few', 'other', 'other', 'few', 'other']
    """
    if abs(n) == 1:
        return "one"
    if lang != "ro":
        return "other"
    return "other" if n and abs(n) % 100 in (0, *range(20, 100)) else "few"


class QuitMatch(Exception):
    """A player typed ``quit`` (or the input ended)."""


class Terminal:
    """Where the players read and type: the messages in one language.

    ``seat`` is the seat of the one person at the keyboard (against the
    computer), or ``None`` when two people share it.
    """

    def __init__(self, lang: str, stdin: TextIO, stdout: TextIO, seat: int | None = None) -> None:
        self.lang = lang
        self.text = MESSAGES[lang]
        self.stdin = stdin
        self.stdout = stdout
        self.seat = seat

    def line(self, key: str, **values: object) -> str:
        """The message ``key`` filled in, starting with a capital letter."""
        text = self.text[key].format(**values)
        return text[:1].upper() + text[1:] if text[:1] != "\0" else text

    def say(self, key: str, **values: object) -> None:
        print(self.line(key, **values), file=self.stdout)

    def about(self, player: int, key: str, names: tuple[str, str], **values: object) -> None:
        """Say ``key`` about ``player``: to them directly when they are the person at the keyboard."""
        if player == self.seat:
            self.say(key + "_you", **values)
        else:
            self.say(key, name=names[player], **values)

    def show(self, text: str) -> None:
        print(text, file=self.stdout)

    def ask(self, prompt_key: str, name: str, **values: object) -> str:
        text = self.line(prompt_key, who="\0", **values)
        if self.seat is None:
            text = text.replace("\0", f"{name}, ")
        else:
            # Spoken to the only person there: no name, and the sentence starts after it.
            head, _, rest = text.partition("\0")
            text = head + rest[:1].upper() + rest[1:]
        print(text, file=self.stdout)
        print("> ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            raise QuitMatch
        return line.strip()

    def count(self, n: int, word: str) -> str:
        """``n`` of ``word`` ("points", "pips", "plays"), grammatical in this language: the
        catalogue's ``word_one``, ``word_few`` or ``word_other`` by ``plural_form``.

        >>> Terminal("ro", sys.stdin, sys.stdout).count(21, "points")
        '21 de puncte'
        """
        form = plural_form(n, self.lang)
        return self.line(f"{word}_{form}" if f"{word}_{form}" in self.text else f"{word}_other", n=n)

    def points(self, n: int) -> str:
        """``n`` points (Romanian: 1 punct, 2 puncte, 20 de puncte, 101 puncte)."""
        return self.count(n, "points")

    def percent(self, p: float) -> str:
        text = f"{100.0 * p:.1f}%"
        return text.replace(".", ",") if self.lang == "ro" else text

    def signed(self, x: float) -> str:
        """``x`` with its sign and three decimals, a true minus sign and the language's decimal mark.

        >>> Terminal("ro", sys.stdin, sys.stdout).signed(-0.4672)
        '−0,467'
        """
        text = f"{x:+.3f}".replace("-", "\u2212")
        return text.replace(".", ",") if self.lang == "ro" else text


# The engine's reasons are in English; these say the usual ones in Romanian.
# Each pattern is searched in the English text; the template takes its groups.
_REASONS_RO: tuple[tuple[str, str], ...] = (
    (r"point (\d+) is closed", "punctul {0} este închis: îl ține adversarul"),
    (r"on point (\d+) is pinned and cannot move", "piesa ta de pe punctul {0} este prinsă și nu se poate muta"),
    (r"bear off while one of your checkers is pinned", "nu poți scoate piese cât timp una e prinsă"),
    (r"only one checker may leave your 24-point",
     "doar o piesă poate pleca de pe punctul 24 până trece de punctul 11"),
    (r"has no backgammon", "jocul nu are marț triplu: abandonează un joc simplu sau un marț"),
    (r"on the bar and must enter first", "ai piese pe bară: trebuie să le readuci în joc mai întâi"),
    (r"bear off only when", "poți scoate piese doar când toate piesele tale sunt în casă"),
    (r"you have no checker on the bar to move", "nu ai nicio piesă pe bară"),
    (r"you have no checker on point (\d+) to move", "nu ai nicio piesă pe punctul {0}"),
    (r"uses 1 die, for example (.+)$",
     "mutarea nu se potrivește cu zarurile: se poate juca un singur zar, de exemplu {0}"),
    (r"uses \d dice, for example (.+)$", "mutarea nu se potrivește cu zarurile; de exemplu: {0}"),
    (r"must be played; for example (.+)$", "zarurile trebuie jucate, de exemplu {0}"),
    (r"is ambiguous with [1-6]-[1-6]: did you mean (.+)\?$", "nu e clar ce mutare vrei: {0}?"),
    (r"marks a hit on (\d+), but", "marchează o piesă lovită pe {0}, dar mutarea nu lovește acolo"),
    (r"checkers move toward 'off'", "piesele se mută spre casă, spre numere mai mici"),
    (r"^cannot read|empty move text|a move is 'from/to'",
     "nu am înțeles mutarea: scrie-o ca 13/7 8/7, bar/22* sau 6/off(2)"),
    (r"only by the player on roll, before rolling", "poți dubla doar la rândul tău, înainte să arunci"),
    (r"without the doubling cube", "partida se joacă fără cub"),
    (r"before the first move", "nu se poate dubla înainte de prima mutare a jocului"),
    (r"in the Crawford game", "în jocul Crawford nu se poate dubla"),
    (r"your opponent owns the cube", "cubul e la adversar: doar el poate redubla"),
    (r"its highest value", "cubul este deja la valoarea maximă"),
    (r"need only one point to win the match", "îți mai trebuie un singur punct, deci nu poți dubla"),
    (r"already wins you the match", "miza de acum îți aduce deja partida, deci nu poți dubla"),
    (r"was just refused", "abandonul tocmai a fost refuzat: joacă întâi, apoi îl poți oferi din nou"),
    (r"^(?:taking|dropping) is not possible now", "nu ai nicio dublare la care să răspunzi"),
    (r"^(?:accepting|rejecting) .* is not possible now", "nu ai niciun abandon la care să răspunzi"),
    (r"is not possible now", "nu este momentul pentru asta"),
)


def explain(error: Exception, lang: str) -> str:
    """The engine's reason for refusing an action, in the terminal's language.

    >>> explain(ValueError("'24/1' is not legal with 3-2: point 1 is closed: ..."), "ro")
    'punctul 1 este închis: îl ține adversarul'
    """
    text = str(error)
    if lang != "ro":
        return text
    for pattern, template in _REASONS_RO:
        found = re.search(pattern, text)
        if found:
            return template.format(*(g.replace(" or ", " sau ") for g in found.groups()))
    return "mutare nepermisă; scrie listă pentru mutările posibile ori ? pentru ajutor"
