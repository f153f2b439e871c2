"""Write the embedded argument-quality sample (data/quality/argquality-sample.csv) in Webis-ArgQuality-20's format.

Every text is our own: six topics (ids 101–106, none of the args or comparative tracks' topics), each with a bank
of claims, reasons, evidence and conclusions per side, from which premises of four kinds are put together —
developed arguments (claim, two reasons, evidence, conclusion), supported claims, bare claims with one reason and
careless one-liners — plus debate bookkeeping that is no argument at all ("I accept this debate."). Scores follow
the kind, with a little seeded noise, centred per topic as the real corpus's are; a premise that is no argument
scores -4, as there. Run from the repository root:

    .venv/bin/python -m tools.make_quality_sample

The output is deterministic (one seeded generator, fixed formatting): a second run writes the same bytes. The
script reads its output back with the library's reader and exits with status 1 if a check fails.
"""

from __future__ import annotations

import csv
import io
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from argrank.quality.data import read_quality_set, read_quality_topics

DATA = Path(__file__).resolve().parent.parent / "data" / "quality"
OUT = DATA / "argquality-sample.csv"
SEED = 20201006
HEADER = (
    "Topic ID", "Argument ID", "Discussion ID", "Premise", "Relevance", "Is Argument?", "Rhetorical Quality",
    "Logical Quality", "Dialectical Quality", "Text Length", "Stance", "Combined Quality",
)  # fmt: skip
NON_ARGUMENT = -4.0
# The kinds of premise per topic (how many, their quality before noise); then the bookkeeping lines.
KINDS = (("developed", 3, 1.6), ("supported", 4, 0.6), ("bare", 4, -0.5), ("careless", 2, -1.7))
BOOKKEEPING_PER_TOPIC = 3
PER_DISCUSSION = 4


@dataclass(frozen=True)
class Side:
    claim: str
    reasons: tuple[str, str, str]
    evidence: str
    conclusion: str
    careless: str


@dataclass(frozen=True)
class Topic:
    number: int
    query: str
    pro: Side
    con: Side


TOPICS = (
    Topic(
        101,
        "Should homework be banned in primary schools?",
        Side(
            "Homework should be banned for primary school children.",
            ("Young children learn best through play, and evenings filled with worksheets leave no time for it.",
             "Homework widens the gap between pupils whose parents can help and those whose parents cannot.",
             "Tired children start the next school day with less attention, not more."),
            "A survey of 1,200 families in our district found that most parents spend over an hour a night "
            "supervising tasks their children cannot finish alone.",
            "Therefore the school day, not the kitchen table, is the right place for primary learning.",
            "homework is just pointless busywork lol, ban it",
        ),
        Side(
            "Homework should stay part of primary school.",
            ("Short exercises at home let children practise reading and arithmetic until it becomes automatic.",
             "Homework shows parents what their children are learning and where they struggle.",
             "Learning to finish a small task on time is a habit that pays off in secondary school."),
            "Teachers in a long-running study reported that pupils who read ten minutes a day at home were a full "
            "year ahead in reading by the age of nine.",
            "Hence a modest amount of homework, set with care, should be kept rather than banned.",
            "kids need homework!!! otherwise they just play games all day",
        ),
    ),
    Topic(
        102,
        "Should cities ban cars from their centres?",
        Side(
            "City centres should be closed to private cars.",
            ("Without through traffic, streets become safe for children, cyclists and older people.",
             "Exhaust fumes in narrow streets harm the lungs of everyone who lives and works there.",
             "Space now used for parking could hold trees, benches and terraces."),
            "After one European city closed its centre to cars, local shops reported more visitors within two "
            "years, because people on foot stay longer.",
            "For these reasons a car-free centre is better for health, safety and business alike.",
            "cars r annoying, just ban them",
        ),
        Side(
            "Cars should not be banned from city centres.",
            ("Many disabled and elderly people depend on a car to reach doctors and shops in the centre.",
             "Tradespeople and deliveries need vehicles, and a ban would only push traffic onto nearby streets.",
             "Shops lose customers who come from villages without good public transport."),
            "Traders in a town that banned cars reported falling sales in the first year, according to the local "
            "chamber of commerce.",
            "Thus the better answer is fewer and cleaner cars, not a blanket ban.",
            "banning cars is stupid, how am i supposed to get to work??",
        ),
    ),
    Topic(
        103,
        "Should plastic bags be banned?",
        Side(
            "Single-use plastic bags should be banned.",
            ("A bag used for twenty minutes lasts for centuries in rivers and seas.",
             "Animals mistake plastic for food and die with their stomachs full of it.",
             "Reusable bags are cheap and easy to carry, so the ban costs shoppers almost nothing."),
            "After a small charge on bags was introduced, the number of bags found on beaches fell by about half, "
            "according to volunteer clean-up counts.",
            "Consequently a ban is a small change for people and a large one for the environment.",
            "plastic is bad. ban it",
        ),
        Side(
            "Plastic bags should not be banned outright.",
            ("Paper and cotton bags need far more energy and water to produce than a thin plastic bag.",
             "Many households reuse plastic bags as bin liners, so a ban simply moves the purchase elsewhere.",
             "A ban hits small shops harder than large supermarkets."),
            "Life-cycle studies have found that a cotton bag must be used well over a hundred times before it "
            "does less harm than a plastic one.",
            "It follows that charging for bags and recycling them works better than banning them.",
            "bags are useful, whats the problem",
        ),
    ),
    Topic(
        104,
        "Should the voting age be lowered to 16?",
        Side(
            "Sixteen-year-olds should be allowed to vote.",
            ("At sixteen people can work, pay taxes and leave school, so they should have a say in the rules.",
             "Young people will live longest with the consequences of today's decisions on climate and pensions.",
             "Voting for the first time while still at home and at school builds a lasting habit."),
            "Where sixteen-year-olds have been given the vote, their turnout in the first election was higher than "
            "that of voters aged eighteen to twenty-four, according to electoral commission figures.",
            "Therefore lowering the voting age strengthens democracy rather than weakening it.",
            "teens should vote!!! we are not stupid",
        ),
        Side(
            "The voting age should stay at eighteen.",
            ("Most sixteen-year-olds are still under their parents' authority, which can shape how they vote.",
             "The law treats sixteen-year-olds as minors in most other matters, and voting should follow suit.",
             "Few young people have asked for the change; it is mostly pushed by parties hoping to gain from it."),
            "Surveys of sixteen-year-olds have shown that a majority feel they know too little about politics to "
            "vote with confidence.",
            "So eighteen remains a sensible and consistent age for the vote.",
            "16 year olds dont know anything about politics",
        ),
    ),
    Topic(
        105,
        "Should public transport be free?",
        Side(
            "Public transport should be free for everyone.",
            ("Free buses and trains would take cars off the road and cut congestion and pollution.",
             "People on low incomes spend a large share of their budget on fares.",
             "Collecting fares costs money itself: machines, staff and checks."),
            "When a capital city made its public transport free, passenger numbers rose by around ten percent "
            "within a year, according to the city's transport office.",
            "Hence free public transport is an investment that pays back in cleaner air and fairer access.",
            "free buses would be awesome",
        ),
        Side(
            "Public transport should not be free.",
            ("Fares pay for a large part of running and maintaining the network.",
             "If everything is free, crowded lines get more crowded without money to add services.",
             "Taxpayers who never use the bus would pay for those who could afford a ticket."),
            "Studies of free-fare schemes found that many new passengers had previously walked or cycled rather "
            "than driven, so traffic hardly fell.",
            "Therefore targeted discounts for those who need them are better value than free fares for all.",
            "nothing is free, someone has to pay lol",
        ),
    ),
    Topic(
        106,
        "Should professional athletes be paid less?",
        Side(
            "Professional athletes are paid too much.",
            ("Nurses and teachers do more for society yet earn a fraction of a footballer's salary.",
             "Huge salaries drive up ticket prices, pricing ordinary fans out of the stadium.",
             "Money concentrated on a few stars leaves little for grassroots sport."),
            "Ticket prices at top clubs have risen much faster than wages over the last twenty years, according to "
            "supporters' association surveys.",
            "For that reason salary caps would make sport fairer for fans and for smaller clubs.",
            "athletes get way too much money its crazy",
        ),
        Side(
            "Professional athletes should not be paid less.",
            ("Their salaries reflect the revenue they bring in through tickets, broadcasting and sponsorship.",
             "A career at the top is short and often ends in injury, so high pay has to cover a lifetime.",
             "Capping pay would only send the money to club owners instead of the players."),
            "Broadcasting deals for major leagues are worth billions, and players receive only part of that income.",
            "Thus cutting athletes' pay would not help fans; it would enrich owners.",
            "they earned it, leave them alone",
        ),
    ),
)

BOOKKEEPING = (
    "I accept this debate and look forward to my opponent's first round.",
    "My opponent forfeited this round. Please extend my arguments and vote {side}.",
    "Thank you for the debate. Vote {side}!",
    "First round is acceptance only, no arguments please.",
    "I will post my arguments in the next round.",
    "Sorry, I ran out of time this round.",
)


def premises(topic: Topic, rng: random.Random) -> list[tuple[str, str, bool, float]]:
    """(kind, text, pro?, quality before centring) of the topic's premises, in a fixed order."""
    out = []
    orders = {pro: rng.sample(range(3), 3) for pro in (True, False)}  # one premise of a kind per side per order
    for kind, count, level in KINDS:
        for i in range(count):
            pro = i % 2 == 0
            side = topic.pro if pro else topic.con
            first, second = orders[pro][i // 2], orders[pro][(i // 2 + 1) % 3]
            text = {
                "developed": " ".join(
                    [side.claim, side.reasons[first], side.evidence, side.reasons[second], side.conclusion]
                ),
                "supported": " ".join([side.claim, side.reasons[first], side.evidence]),
                "bare": " ".join([side.claim, side.reasons[first]]),
                "careless": side.careless,
            }[kind]
            out.append((kind, text, pro, level + rng.uniform(-0.4, 0.4)))
    for line in rng.sample(BOOKKEEPING, BOOKKEEPING_PER_TOPIC):
        pro = rng.random() < 0.5
        out.append(("bookkeeping", line.format(side="Pro" if pro else "Con"), pro, NON_ARGUMENT))
    return out


def rows(rng: random.Random) -> list[list[str]]:
    table = []
    for topic in TOPICS:
        made = premises(topic, rng)
        arguments = np.array([quality for kind, _, _, quality in made if kind != "bookkeeping"])
        centre = float(arguments.mean())
        for number, (kind, text, pro, quality) in enumerate(made):
            is_argument = kind != "bookkeeping"
            combined = quality - centre if is_argument else NON_ARGUMENT
            dimensions = [combined + rng.uniform(-0.25, 0.25) if is_argument else NON_ARGUMENT for _ in range(3)]
            relevance = 0.6 * combined + rng.uniform(-0.5, 0.5) if is_argument else NON_ARGUMENT
            discussion = 9000 + 10 * topic.number + number // PER_DISCUSSION
            table.append([
                str(topic.number), str(number % PER_DISCUSSION + 1), str(discussion), text, _number(relevance),
                str(is_argument), *(_number(value) for value in dimensions), str(len(text.split())), str(pro),
                _number(combined),
            ])  # fmt: skip
    return table


def _number(value: float) -> str:
    return repr(round(value, 6))


def write() -> None:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(rows(random.Random(SEED)))
    OUT.write_text(buffer.getvalue(), encoding="utf-8")


def check() -> list[str]:
    """Problems with the written file: it must read back, every topic must have a query and both classes."""
    problems = []
    examples = read_quality_set(OUT)
    queries = read_quality_topics(DATA / "topics.csv")
    for topic in TOPICS:
        chosen = examples.topics == topic.number
        if queries.get(topic.number) != topic.query:
            problems.append(f"topic {topic.number}: data/quality/topics.csv does not hold its query")
        if not (examples.is_argument[chosen].any() and (~examples.is_argument[chosen]).any()):
            problems.append(f"topic {topic.number}: needs arguments and non-arguments")
    return problems


if __name__ == "__main__":
    write()
    found = check()
    for problem in found:
        print(problem, file=sys.stderr)
    sys.exit(1 if found else 0)
