"""Write the embedded perspective data (data/perspective/) in the layout of the Perspective Argument Retrieval release.

Everything here was written for this project: the eight questions, their German, French and Italian wording, and
all arguments are our own text, modelled on the kind of short comment a Swiss candidate leaves on a voting-advice
questionnaire. Nothing is copied from smartvote, x-stance or the shared task's data. Run from the repository root:

    .venv/bin/python -m tools.make_perspective_corpus

The output is deterministic: every random choice (which politician wrote which arguments, their profiles, the
properties of the perspective queries) comes from one generator with a fixed seed, nothing depends on the clock or on
set order, and JSON is written with fixed settings, so a second run writes byte-identical files. The script checks
its own output before it finishes and exits with status 1 if a check fails (see `check`). data/perspective/README.md
describes the data.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from argrank.tracks.perspective.data import QUERY_PROPERTY_TO_CORPUS

DATA = Path(__file__).resolve().parent.parent / "data" / "perspective"
SEED = 20240501
FIRST_ARGUMENT_ID = 1000
FIRST_BASELINE_QUERY_ID = 1
FIRST_PERSPECTIVE_QUERY_ID = 101
LANGUAGES = ("de", "fr", "it")
SPLITS = ("train", "dev", "test")

# --------------------------------------------------------------------------------------------------
# profile values (German, capitalised as in the real release)

GENDERS = ("Männlich", "Weiblich")
AGES = ("18-34", "35-49", "50-64", "65+")
RESIDENCES = ("Stadt", "Agglomeration", "Land")
CIVIL_STATUSES = ("Ledig", "Verheiratet", "Geschieden", "Verwitwet")
DENOMINATIONS = ("Römisch-katholisch", "Evangelisch-reformiert", "Konfessionslos", "Andere", "Nicht bekannt")
EDUCATIONS = ("Obligatorische Schule", "Berufslehre", "Matura", "Höhere Berufsbildung", "Fachhochschule", "Universität")
SPECTRUM = ("Links", "Mitte-Links", "Mitte", "Mitte-Rechts", "Rechts")  # left to right
POLITICAL_ISSUES = (  # the eight smartvote issue labels the released evaluator knows
    "Offene Aussenpolitik",
    "Liberale Wirtschaftspolitik",
    "Restriktive Finanzpolitik",
    "Law & Order",
    "Restriktive Migrationspolitik",
    "Ausgebauter Umweltschutz",
    "Ausgebauter Sozialstaat",
    "Liberale Gesellschaft",
)
# How much each spectrum position (left to right) cares about each issue.
ISSUE_WEIGHTS = {
    "Offene Aussenpolitik": (4, 4, 3, 1, 0.3),
    "Liberale Wirtschaftspolitik": (0.3, 1, 3, 4, 3),
    "Restriktive Finanzpolitik": (0.3, 0.5, 2, 4, 4),
    "Law & Order": (0.3, 0.5, 2, 3, 5),
    "Restriktive Migrationspolitik": (0.2, 0.3, 1, 3, 6),
    "Ausgebauter Umweltschutz": (6, 4, 2, 0.5, 0.3),
    "Ausgebauter Sozialstaat": (5, 4, 2, 0.5, 0.3),
    "Liberale Gesellschaft": (4, 3, 2, 2, 0.5),
}
# The keys of a perspective query's `demographic_property` and the corpus field each one reads.
QUERY_PROPERTIES = QUERY_PROPERTY_TO_CORPUS

# --------------------------------------------------------------------------------------------------
# the issues and their arguments
#
# Each argument is (stance, text) or (stance, text, hints): F = FAVOR, A = AGAINST. Hints fix profile fields
# that the text itself gives away ("Als Bauer …": male, rural), so the text never contradicts its author's profile.
# `lean` says who favours the proposal: +1 the left, -1 the right, values between are weaker leanings.

MALE = {"gender": "Männlich"}
FEMALE = {"gender": "Weiblich"}

# Arguments that two different politicians wrote word for word (the real corpus has such duplicates).
DUP_PENSION = "Rentenalter 67 sichert die Renten für kommende Generationen."
DUP_TRANSIT = "Ein günstiger öffentlicher Verkehr ist gut für das Klima und das Portemonnaie."
DUP_VAT = "Oui, il faut garantir les rentes AVS pour les générations futures."
DUP_NUCLEAR = "Atomkraft? Nein danke."

ISSUES = [
    {
        "key": "pension-age",
        "split": "train",
        "topic": "Welfare",
        "lean": -0.9,
        "questions": {
            "de": "Soll das Rentenalter für Frauen und Männer auf 67 Jahre erhöht werden?",
            "fr": "L'âge de la retraite doit-il être relevé à 67 ans pour les femmes et les hommes ?",
            "it": "L'età pensionabile per donne e uomini dovrebbe essere innalzata a 67 anni?",
        },
        "de": [
            ("F", "Wir leben heute viel länger als bei der Einführung der AHV. Ein Rentenalter von 67 ist deshalb nur konsequent."),
            ("F", "Ohne eine Erhöhung des Rentenalters wird die AHV in wenigen Jahren rote Zahlen schreiben. Das können wir der jungen Generation nicht zumuten."),
            ("F", "Die Lebenserwartung steigt seit Jahrzehnten. Wer länger lebt, bezieht auch länger Rente, also muss auch länger gearbeitet werden."),
            ("F", DUP_PENSION),
            ("F", "Andere Länder wie Deutschland haben das Rentenalter bereits auf 67 angehoben. Die Schweiz sollte nicht länger zuwarten."),
            ("F", "Der Fachkräftemangel ist real. Erfahrene Arbeitnehmende sollen länger im Arbeitsmarkt bleiben können."),
            ("F", "Eine schrittweise Erhöhung, gekoppelt an die Lebenserwartung, ist fair und verhindert drastische Steuererhöhungen."),
            ("F", "Ja, aber nur mit flexiblen Lösungen für Berufe mit harter körperlicher Arbeit."),
            ("F", "Die Finanzierung der ersten Säule ist nicht mehr gesichert. Mehr Beitragsjahre sind die ehrlichste Lösung."),
            ("F", DUP_PENSION),
            ("F", "Als Unternehmer sehe ich täglich, wie wertvoll ältere Mitarbeitende sind. Mit 65 aufzuhören ist oft zu früh.", MALE),
            ("A", "Viele Menschen mit körperlich anstrengenden Berufen schaffen es schon heute kaum bis 65. Ein höheres Rentenalter ist eine versteckte Rentenkürzung."),
            ("A", "Wer mit 60 die Stelle verliert, findet kaum noch Arbeit. Ein Rentenalter 67 verschiebt das Problem nur in die Sozialhilfe und die Arbeitslosenversicherung."),
            ("A", "Nein. Die AHV kann auch über höhere Lohnbeiträge oder die Gewinne der Nationalbank gesichert werden."),
            ("A", "Frauen erhalten immer noch deutlich tiefere Renten als Männer. Zuerst muss die Rentenlücke geschlossen werden, bevor man über 67 spricht."),
            ("A", "Als Pflegefachfrau weiss ich, wie ausgelaugt man mit Mitte sechzig ist. Zwei zusätzliche Jahre wären für viele nicht zu schaffen.", FEMALE),
            ("A", "Die Produktivität steigt laufend. Der Fortschritt muss auch den Arbeitnehmenden zugutekommen, nicht nur den Aktionären."),
            ("A", "Ein starres Rentenalter für alle ist falsch. Wer will, kann schon heute länger arbeiten."),
            ("A", "Ältere Menschen leisten unzählige Stunden Freiwilligenarbeit und hüten ihre Enkelkinder. Dieser Beitrag geht bei einem höheren Rentenalter verloren."),
            ("A", "Das Volk hat ein höheres Rentenalter mehrfach abgelehnt. Dieser Entscheid ist zu respektieren."),
            ("A", "Statt das Rentenalter zu erhöhen, braucht es mehr Teilzeitstellen und Weiterbildung für über 50-Jährige."),
            ("A", "Nein zur Rente mit 67!"),
        ],
        "fr": [
            ("F", "L'espérance de vie augmente constamment. Il est logique de relever l'âge de la retraite à 67 ans pour garantir l'AVS."),
            ("F", "Sans réforme, l'AVS sera déficitaire dans quelques années. Travailler deux ans de plus est la solution la plus équitable entre les générations."),
            ("F", "Plusieurs pays voisins ont déjà fixé la retraite à 67 ans. La Suisse doit suivre pour assurer le financement des rentes."),
            ("F", "Oui, à condition de prévoir des exceptions pour les métiers pénibles."),
            ("F", "Nos entreprises manquent de personnel qualifié. Garder les travailleurs expérimentés plus longtemps est une chance pour l'économie."),
            ("A", "Les seniors de plus de 55 ans peinent déjà à retrouver un emploi. Relever l'âge de la retraite ne fera qu'augmenter le chômage des aînés."),
            ("A", "Non. Les femmes touchent des rentes bien plus basses que les hommes et on voudrait encore les faire travailler plus longtemps ?"),
            ("A", "Un maçon ou une infirmière ne peut pas travailler jusqu'à 67 ans. C'est une baisse des rentes déguisée."),
            ("A", "L'AVS peut être financée autrement, par exemple avec les bénéfices de la BNS ou une hausse modérée des cotisations."),
            ("A", "Le peuple a déjà refusé plusieurs fois une retraite plus tardive. Il faut respecter la volonté populaire."),
            ("A", "Les gains de productivité doivent profiter aux travailleurs. Parlons plutôt d'une retraite flexible dès 62 ans."),
            ("A", "Non à la retraite à 67 ans !"),
        ],
        "it": [
            ("F", "L'aspettativa di vita continua ad aumentare: portare l'età pensionabile a 67 anni è necessario per salvare l'AVS."),
            ("F", "Senza una riforma le rendite dei nostri figli non saranno più garantite. Lavorare due anni in più è un sacrificio sostenibile."),
            ("A", "Chi fa un lavoro pesante, in cantiere o in ospedale, non arriva in salute a 67 anni. No a un aumento dell'età pensionabile."),
            ("A", "Le donne ricevono già rendite più basse. Prima di alzare l'età della pensione bisogna colmare questa disparità."),
            ("A", "In Ticino molti over 55 non trovano più lavoro. Alzare l'età pensionabile significa solo più disoccupazione."),
        ],
    },
    {
        "key": "flight-ticket-levy",
        "split": "train",
        "topic": "Infrastructure & Environment",
        "lean": 0.9,
        "questions": {
            "de": "Soll auf Flugtickets eine Abgabe zum Schutz des Klimas erhoben werden?",
            "fr": "Faut-il introduire une taxe sur les billets d'avion pour protéger le climat ?",
            "it": "Si dovrebbe introdurre una tassa sui biglietti aerei per proteggere il clima?",
        },
        "de": [
            ("F", "Fliegen ist viel zu billig. Eine Flugticketabgabe sorgt dafür, dass die Klimakosten endlich im Preis enthalten sind."),
            ("F", "Der Flugverkehr verursacht über 20 Prozent der CO2-Emissionen der Schweiz. Eine Lenkungsabgabe auf Flugtickets ist ein wirksames Mittel."),
            ("F", "Ein Wochenende in Barcelona für 30 Franken ist absurd. Die Abgabe macht den Zug wieder konkurrenzfähig."),
            ("F", "Die Einnahmen sollen an die Bevölkerung zurückverteilt werden. So profitieren Familien, die selten fliegen."),
            ("F", "Kerosin ist steuerbefreit, Benzin nicht. Diese Ungerechtigkeit muss mit einer Abgabe auf Flugtickets korrigiert werden."),
            ("F", "Alle unsere Nachbarländer kennen bereits eine Ticketabgabe. Die Schweiz hinkt hinterher."),
            ("F", "Wer viel fliegt, soll auch mehr für den Klimaschutz bezahlen. Das ist das Verursacherprinzip."),
            ("F", "Ja, und zusätzlich sollten Nachtzüge ausgebaut werden, damit es eine echte Alternative zum Flugzeug gibt."),
            ("F", "Die jungen Menschen, die für das Klima auf die Strasse gehen, verdienen eine Antwort. Die Flugticketabgabe ist ein erster Schritt."),
            ("F", "Eine Abgabe von 30 bis 120 Franken pro Flug ist moderat und trifft vor allem Vielflieger."),
            ("F", "Klimaschutz gibt es nicht gratis."),
            ("F", "Als Vater von drei Kindern wünsche ich mir, dass wir das Pariser Klimaabkommen ernst nehmen. Dazu gehört eine Abgabe auf Flüge.", MALE),
            ("A", "Eine Flugticketabgabe trifft vor allem Familien mit kleinem Budget, die sich einmal im Jahr Ferien leisten. Reiche fliegen weiterhin."),
            ("A", "Die Passagiere weichen einfach auf die Flughäfen in Mailand, Basel-Mulhouse oder München aus. Dem Klima ist damit nicht geholfen."),
            ("A", "Noch eine neue Steuer! Der Mittelstand wird schon genug belastet."),
            ("A", "Die Luftfahrt ist für den Wirtschaftsstandort und den Tourismus zentral. Eine Abgabe schwächt unsere Flughäfen."),
            ("A", "Die Schweiz allein kann das Klima nicht retten. Der Flugverkehr muss international geregelt werden, zum Beispiel über den Emissionshandel."),
            ("A", "Innovation statt Verbote: Synthetische Treibstoffe und effizientere Flugzeuge bringen mehr als eine Strafsteuer."),
            ("A", "Nein. Lenkungsabgaben wirken kaum, weil die Nachfrage nach Flügen kaum auf den Preis reagiert."),
            ("A", "Für Auslandschweizer und Menschen mit Familie im Ausland ist Fliegen keine Luxusreise. Sie würden unfair bestraft."),
            ("A", "Die CO2-Emissionen der Schweiz sind im weltweiten Vergleich minim. Eine Abgabe auf Flugtickets ist reine Symbolpolitik."),
            ("A", "Der Staat hat kein Einnahmenproblem, sondern ein Ausgabenproblem."),
            ("A", "Als Reiseunternehmerin erlebe ich, wie knapp die Margen sind. Eine zusätzliche Abgabe würde Arbeitsplätze in der Branche gefährden.", FEMALE),
        ],
        "fr": [
            ("F", "Prendre l'avion coûte moins cher que le train, c'est absurde. Une taxe sur les billets d'avion corrige ce déséquilibre."),
            ("F", "Le trafic aérien est responsable d'une part croissante des émissions de CO2. Une taxe incitative est indispensable pour le climat."),
            ("F", "Le kérosène n'est pas taxé. Il est temps que les passagers paient le vrai prix de leurs vols."),
            ("F", "Oui, à condition que le produit de la taxe soit redistribué à la population, notamment aux familles."),
            ("F", "La France et l'Allemagne connaissent déjà une taxe sur les billets. La Suisse doit en faire autant."),
            ("F", "Une taxe sur les billets d'avion permettrait de financer les trains de nuit et d'autres alternatives au transport aérien."),
            ("A", "Cette taxe pénalise les familles modestes qui partent une fois par an en vacances. Les riches continueront à voler."),
            ("A", "Les voyageurs romands iront simplement prendre l'avion à Lyon ou à l'EuroAirport. Aucun gain pour le climat."),
            ("A", "Non à un nouvel impôt ! Les ménages paient déjà assez."),
            ("A", "L'aéroport de Genève est un moteur économique pour toute la région. Une taxe affaiblirait l'emploi et le tourisme."),
            ("A", "Le problème du climat est mondial. Une taxe uniquement suisse sur les vols n'a qu'un effet symbolique."),
            ("A", "Misons sur l'innovation, les carburants synthétiques et les avions plus efficaces plutôt que sur de nouvelles taxes."),
        ],
        "it": [
            ("F", "Volare costa troppo poco rispetto al treno. Una tassa sui biglietti aerei aiuta a ridurre le emissioni di CO2."),
            ("F", "Chi inquina deve pagare: una tassa sui voli è una misura giusta per il clima, se i proventi tornano alle famiglie."),
            ("A", "I ticinesi prenderebbero semplicemente l'aereo a Milano Malpensa. Una tassa svizzera sui biglietti aerei non serve al clima."),
            ("A", "No a nuove imposte che colpiscono il ceto medio e le famiglie."),
        ],
    },
    {
        "key": "cannabis",
        "split": "train",
        "topic": "Society",
        "lean": 0.7,
        "questions": {
            "de": "Soll der Konsum von Cannabis legalisiert werden?",
            "fr": "La consommation de cannabis doit-elle être légalisée ?",
            "it": "Il consumo di cannabis dovrebbe essere legalizzato?",
        },
        "de": [
            ("F", "Die Prohibition ist gescheitert. Eine regulierte Abgabe von Cannabis entzieht dem Schwarzmarkt die Grundlage."),
            ("F", "Mit einer Legalisierung kann der Staat die Qualität kontrollieren und den Jugendschutz endlich wirksam durchsetzen."),
            ("F", "Polizei und Justiz verschwenden viel Zeit mit Kiffern. Diese Ressourcen fehlen bei der Bekämpfung schwerer Kriminalität."),
            ("F", "Alkohol ist legal und weitaus gefährlicher. Es gibt keinen vernünftigen Grund, Cannabis anders zu behandeln."),
            ("F", "Erwachsene sollen selbst entscheiden dürfen, was sie konsumieren. Der Staat muss nicht alles verbieten."),
            ("F", "Die Pilotversuche in Basel, Zürich und Bern zeigen, dass ein regulierter Verkauf funktioniert."),
            ("F", "Ja. Die Steuereinnahmen aus dem Verkauf von Cannabis können in Prävention und Suchtberatung fliessen."),
            ("F", "Kanada und Uruguay haben legalisiert, ohne dass der Konsum explodiert ist."),
            ("F", "Als junger Mensch kenne ich viele, die kiffen. Sie sollten nicht kriminalisiert werden, sondern Zugang zu sauberen Produkten und ehrlicher Information haben.", {"age": "18-34"}),
            ("F", "Legalisieren, regulieren, besteuern."),
            ("F", "Cannabis als Medizin hilft vielen Schmerzpatienten. Der Zugang darf nicht länger erschwert werden."),
            ("A", "Cannabis ist eine Einstiegsdroge. Eine Legalisierung sendet das falsche Signal an unsere Jugend."),
            ("A", "Der THC-Gehalt ist heute viel höher als früher. Psychosen bei jungen Menschen nehmen zu."),
            ("A", "Wir haben schon genug Probleme mit Alkohol und Tabak. Eine weitere legale Droge brauchen wir nicht."),
            ("A", "Der Schwarzmarkt verschwindet nicht, er unterbietet einfach die legalen Preise."),
            ("A", "Als Lehrerin sehe ich, wie Kiffen die Konzentration und Motivation von Jugendlichen zerstört.", FEMALE),
            ("A", "Nein. Wer bekifft Auto fährt, gefährdet andere. Eine Legalisierung würde den Strassenverkehr unsicherer machen."),
            ("A", "Die heutige Regelung mit Ordnungsbussen für Erwachsene ist ein guter Kompromiss. Eine volle Legalisierung geht zu weit."),
            ("A", "Drogen sind keine Konsumgüter wie andere. Der Staat hat eine Schutzpflicht für die Gesundheit der Bevölkerung."),
            ("A", "In Colorado hat die Legalisierung zu mehr Notfällen und mehr Konsum bei Jugendlichen geführt."),
            ("A", "Kein legales Kiffen!"),
        ],
        "fr": [
            ("F", "La prohibition du cannabis est un échec. Une vente réglementée priverait le marché noir de ses revenus."),
            ("F", "Légaliser le cannabis permet de contrôler la qualité des produits et de mieux protéger les jeunes."),
            ("F", "La police perd un temps précieux à poursuivre les consommateurs de cannabis au lieu de lutter contre la criminalité grave."),
            ("F", "L'alcool est légal et bien plus dangereux. Pourquoi interdire le cannabis ?"),
            ("F", "Les adultes sont libres de leurs choix. L'État n'a pas à dicter ce que chacun consomme."),
            ("F", "Oui, avec une fiscalité dont les recettes financent la prévention des addictions."),
            ("F", "Les essais pilotes à Genève et à Lausanne montrent qu'une vente encadrée est possible."),
            ("A", "Le cannabis est une drogue d'entrée. Sa légalisation banaliserait la consommation chez les jeunes."),
            ("A", "Le taux de THC a fortement augmenté. Les psychiatres constatent de plus en plus de psychoses chez les adolescents."),
            ("A", "Non. Nous avons déjà assez de problèmes avec l'alcool et le tabac."),
            ("A", "Le marché noir ne disparaîtra pas ; il proposera simplement des prix plus bas que les magasins légaux."),
            ("A", "En tant que médecin de famille, je vois les dégâts du cannabis sur la santé mentale des jeunes."),
            ("A", "Conduire sous l'effet du cannabis met en danger les autres usagers de la route. Pas de légalisation !"),
        ],
        "it": [
            ("F", "Il proibizionismo ha fallito. Legalizzare la cannabis toglie soldi alla criminalità organizzata."),
            ("F", "Una vendita regolamentata della cannabis permette di controllare la qualità e di proteggere meglio i giovani."),
            ("F", "Gli adulti devono poter decidere liberamente. Lo Stato dovrebbe investire nella prevenzione, non nella repressione."),
            ("A", "La cannabis è una droga di passaggio. Legalizzarla manda un messaggio sbagliato ai nostri giovani."),
            ("A", "Il THC di oggi è molto più forte di una volta e provoca gravi problemi psichici negli adolescenti."),
            ("A", "No. Abbiamo già abbastanza problemi con l'alcol."),
        ],
    },
    {
        "key": "inheritance-tax",
        "split": "train",
        "topic": "Finances",
        "lean": 1.0,
        "questions": {
            "de": "Soll eine nationale Erbschaftssteuer auf Erbschaften über zwei Millionen Franken eingeführt werden?",
            "fr": "Faut-il introduire un impôt national sur les successions de plus de deux millions de francs ?",
            "it": "Si dovrebbe introdurre un'imposta nazionale sulle successioni superiori a due milioni di franchi?",
        },
        "de": [
            ("F", "Die Vermögen in der Schweiz sind extrem ungleich verteilt. Eine Steuer auf grosse Erbschaften ist ein Beitrag zu mehr Chancengleichheit."),
            ("F", "Erben ist leistungsloses Einkommen. Es ist gerechter, Erbschaften zu besteuern als Arbeit."),
            ("F", "Mit einem Freibetrag von zwei Millionen Franken sind über 98 Prozent der Bevölkerung gar nicht betroffen."),
            ("F", "Die Einnahmen der Erbschaftssteuer können der AHV zugutekommen und so die Renten sichern."),
            ("F", "Fast alle Kantone haben die Erbschaftssteuer für direkte Nachkommen abgeschafft. Eine nationale Lösung beendet den Steuerwettbewerb nach unten."),
            ("F", "Ja. Wer Millionen erbt, kann einen Teil davon der Allgemeinheit zurückgeben."),
            ("F", "Eine liberale Gesellschaft belohnt Leistung und nicht Herkunft. Darum braucht es eine Steuer auf grosse Erbschaften."),
            ("F", "Heute wird fast die Hälfte aller Vermögen vererbt statt erarbeitet. Das zementiert Privilegien über Generationen."),
            ("F", "Superreiche zahlen im Verhältnis kaum Steuern. Eine Erbschaftssteuer ab zwei Millionen schliesst diese Lücke."),
            ("F", "Die Steuer auf hohe Erbschaften ermöglicht es, Familien mit tiefen Einkommen bei den Steuern zu entlasten."),
            ("A", "Das Vermögen wurde bereits als Einkommen und als Vermögen besteuert. Eine Erbschaftssteuer ist eine Doppelbesteuerung."),
            ("A", "Eine Erbschaftssteuer gefährdet die Nachfolge in Familienunternehmen und KMU. Die Erben müssten Firmenteile verkaufen, um die Steuer zu bezahlen."),
            ("A", "Als Bauer weiss ich: Ein Hof ist schnell zwei Millionen Franken wert, auch wenn er kaum Einkommen abwirft. Diese Steuer würde viele Betriebe zerstören.", {"gender": "Männlich", "residence": "Land"}),
            ("A", "Die Erbschaftssteuer ist Sache der Kantone. Der Bund soll sich nicht einmischen."),
            ("A", "Vermögende Personen würden einfach ins Ausland ziehen. Am Ende fehlen die Steuereinnahmen allen."),
            ("A", "Wer ein Leben lang gespart hat, soll sein Vermögen seinen Kindern weitergeben dürfen, ohne dass der Staat mitkassiert."),
            ("A", "Das Volk hat eine nationale Erbschaftssteuer 2015 deutlich abgelehnt."),
            ("A", "Nein zu neuen Steuern! Die Schweiz hat schon eine der höchsten Vermögenssteuern Europas."),
            ("A", "Eine Erbschaftssteuer bestraft Sparsamkeit und Verantwortung für die eigene Familie."),
            ("A", "Die Steuer trifft nicht die Superreichen, die gute Steuerberater haben, sondern den Mittelstand mit Liegenschaften."),
            ("A", "Familienunternehmen sind das Rückgrat unserer Wirtschaft. Hände weg von ihrem Erbe."),
            ("A", "Nein, das ist eine Enteignung der Familien."),
        ],
        "fr": [
            ("F", "La fortune est très inégalement répartie en Suisse. Un impôt sur les grosses successions renforcerait l'égalité des chances."),
            ("F", "Hériter n'est pas un mérite. Il est plus juste d'imposer les héritages que le travail."),
            ("F", "Avec une franchise de deux millions de francs, l'immense majorité des familles ne serait pas touchée."),
            ("F", "Les recettes de l'impôt sur les successions pourraient financer l'AVS."),
            ("F", "Oui, pour mettre fin à la concurrence fiscale entre les cantons, qui ont presque tous supprimé l'impôt sur les successions."),
            ("A", "Les biens ont déjà été imposés comme revenu et comme fortune. Un impôt sur les successions est une double imposition."),
            ("A", "Cet impôt menacerait la transmission des PME et des entreprises familiales."),
            ("A", "Les grandes fortunes partiront à l'étranger et le fisc perdra plus qu'il ne gagne."),
            ("A", "L'imposition des successions relève des cantons, pas de la Confédération."),
            ("A", "Non à un nouvel impôt qui frappe les familles et la classe moyenne."),
            ("A", "Le peuple a déjà refusé un impôt fédéral sur les successions en 2015."),
        ],
        "it": [
            ("F", "La ricchezza è distribuita in modo molto diseguale. Un'imposta sulle grandi eredità è una questione di giustizia."),
            ("A", "Un'imposta di successione mette in pericolo le aziende di famiglia e le PMI."),
            ("A", "I patrimoni sono già stati tassati. Questa sarebbe una doppia imposizione."),
        ],
    },
    {
        "key": "public-transport-fares",
        "split": "dev",
        "topic": "Infrastructure & Environment",
        "lean": 0.8,
        "questions": {
            "de": "Soll der Bund den öffentlichen Verkehr stärker subventionieren, damit Billette für Bahn und Bus günstiger werden?",
            "fr": "La Confédération doit-elle subventionner davantage les transports publics afin que les billets de train et de bus deviennent moins chers ?",
            "it": "La Confederazione dovrebbe sovvenzionare maggiormente i trasporti pubblici affinché i biglietti di treno e bus diventino più economici?",
        },
        "de": [
            ("F", "Günstigere Billette bringen mehr Menschen vom Auto in den Zug. Das ist aktiver Klimaschutz."),
            ("F", "Die Preise bei der SBB sind in den letzten Jahren stärker gestiegen als die Löhne. Der öffentliche Verkehr muss für alle bezahlbar bleiben."),
            ("F", "Ein GA kostet heute über 3800 Franken. Für viele Familien ist das unerschwinglich."),
            ("F", "Der Verkehr verursacht rund ein Drittel der CO2-Emissionen. Ein attraktiver ÖV ist der Schlüssel, um sie zu senken."),
            ("F", "Wer in einer Randregion wohnt, ist auf Bus und Bahn angewiesen. Günstigere Tickets stärken die Randregionen."),
            ("F", "Ja. Der öffentliche Verkehr ist ein Service public und keine Gewinnmaschine."),
            ("F", "Ein günstiger ÖV entlastet die Strassen und spart so teure Investitionen in neue Autobahnen."),
            ("F", DUP_TRANSIT),
            ("F", DUP_TRANSIT),
            ("F", "Luxemburg hat den ÖV gratis gemacht. Die Schweiz kann sich mindestens tiefere Preise leisten."),
            ("F", "Als Studentin pendle ich jeden Tag zwei Stunden. Ein günstigeres Abo würde mir sehr helfen.", {"gender": "Weiblich", "age": "18-34"}),
            ("F", "Junge Menschen und Rentner profitieren am meisten von tieferen Billettpreisen."),
            ("A", "Die Steuerzahler finanzieren den öffentlichen Verkehr bereits zur Hälfte. Wer fährt, soll auch seinen Anteil bezahlen."),
            ("A", "Noch mehr Subventionen für die SBB? Zuerst sollen die Kosten und die Verwaltung effizienter werden."),
            ("A", "Zu Stosszeiten sind die Züge schon heute übervoll. Tiefere Preise würden das Problem nur verschärfen."),
            ("A", "Die Autofahrer bezahlen mit Mineralölsteuer und Vignette schon genug. Es ist nicht fair, dass sie auch noch den Zug subventionieren."),
            ("A", "Der Bund hat kein Geld für neue Subventionen. Die Schuldenbremse muss eingehalten werden."),
            ("A", "Bei uns auf dem Land fährt der Bus nur jede Stunde. Günstigere Billette nützen uns nichts, wir brauchen das Auto.", {"residence": "Land"}),
            ("A", "Nein. Das Geld ist besser in den Ausbau der Infrastruktur investiert als in Billettpreise."),
            ("A", "Der Preis ist nicht das Problem, sondern Pünktlichkeit und Angebot."),
            ("A", "Wer subventionierte Billette will, muss sagen, welche Steuern er erhöhen will."),
            ("A", "Das Verursacherprinzip gilt auch im Verkehr. Die Nutzer sollen zahlen."),
        ],
        "fr": [
            ("F", "Des billets moins chers inciteraient davantage de personnes à laisser la voiture au garage et à prendre le train. C'est bon pour le climat."),
            ("F", "Les prix des CFF ont augmenté plus vite que les salaires. Les transports publics doivent rester abordables pour tous."),
            ("F", "Un abonnement général coûte plus de 3800 francs. C'est trop cher pour de nombreuses familles."),
            ("F", "Oui. Les transports publics sont un service public, pas une machine à profits."),
            ("F", "Dans les régions périphériques, le bus est essentiel pour les jeunes et les personnes âgées. Des billets moins chers les aident directement."),
            ("F", "Oui, pour des transports publics accessibles à toutes et à tous."),
            ("F", "Un réseau de bus et de trains bon marché renforce la cohésion entre les villes et les campagnes."),
            ("A", "Les contribuables paient déjà la moitié des coûts des transports publics. Les usagers doivent assumer leur part."),
            ("A", "Aux heures de pointe, les trains sont déjà bondés. Baisser les prix ne ferait qu'aggraver la situation."),
            ("A", "Non. La Confédération doit respecter le frein à l'endettement."),
            ("A", "Le problème n'est pas le prix du billet mais la ponctualité et la fréquence des CFF."),
            ("A", "Les automobilistes paient déjà l'impôt sur les huiles minérales et la vignette. Pas question qu'ils subventionnent encore le train."),
        ],
        "it": [
            ("F", "Biglietti più economici portano più persone sui treni e riducono il traffico e le emissioni di CO2."),
            ("F", "I prezzi delle FFS sono aumentati troppo. I trasporti pubblici devono restare accessibili a tutte le famiglie."),
            ("F", "Sì, soprattutto per le valli e le regioni periferiche, dove il bus è indispensabile per giovani e anziani."),
            ("A", "I contribuenti pagano già metà dei costi dei trasporti pubblici. Chi viaggia deve pagare la sua parte."),
            ("A", "No. Prima bisogna migliorare la puntualità e l'offerta, non abbassare i prezzi."),
        ],
    },
    {
        "key": "vat-for-pensions",
        "split": "dev",
        "topic": "Welfare",
        "lean": 0.4,
        "questions": {
            "de": "Soll die Mehrwertsteuer erhöht werden, um die Finanzierung der AHV zu sichern?",
            "fr": "Faut-il augmenter la TVA pour garantir le financement de l'AVS ?",
            "it": "Si dovrebbe aumentare l'IVA per garantire il finanziamento dell'AVS?",
        },
        "de": [
            ("F", "Die AHV braucht dringend zusätzliche Mittel. Eine moderate Erhöhung der Mehrwertsteuer verteilt die Last auf alle Schultern."),
            ("F", "Eine höhere MWST ist besser als Rentenkürzungen. Die AHV ist das wichtigste Sozialwerk der Schweiz."),
            ("F", "Auch Rentnerinnen und Rentner zahlen Mehrwertsteuer. So tragen alle Generationen zur Finanzierung bei, nicht nur die Erwerbstätigen."),
            ("F", "Die Babyboomer gehen in Pension. Ohne zusätzliche Einnahmen entsteht in der AHV ein Loch von Milliarden Franken."),
            ("F", "Ja, 0,4 Prozentpunkte mehr Mehrwertsteuer sind für die Sicherheit der Renten ein vertretbarer Preis."),
            ("F", "Lieber eine etwas höhere Mehrwertsteuer als ein höheres Rentenalter."),
            ("F", "Die Mehrwertsteuer wurde schon früher für die AHV erhöht, und das hat sich bewährt."),
            ("F", "Eine Zusatzfinanzierung über die MWST ist rasch umsetzbar und sichert die AHV bis 2030."),
            ("F", "Die AHV ist solidarisch finanziert, und das soll so bleiben. Ein Mehrwertsteuerprozent dafür ist richtig."),
            ("F", "Stabile Renten sind auch gut für den Konsum und damit für die Wirtschaft."),
            ("A", "Die Mehrwertsteuer trifft Familien und Menschen mit kleinem Einkommen am stärksten. Das ist unsozial."),
            ("A", "Mehr Geld allein löst das strukturelle Problem der AHV nicht. Es braucht eine Reform mit einem höheren Rentenalter."),
            ("A", "Eine höhere Mehrwertsteuer verteuert den Einkauf und treibt noch mehr Leute zum Einkaufstourismus ins Ausland."),
            ("A", "Nein. Die Steuerlast ist in der Schweiz schon hoch genug, die Konsumenten dürfen nicht weiter belastet werden."),
            ("A", "Die AHV sollte über höhere Lohnbeiträge finanziert werden, nicht über eine Konsumsteuer, die alle gleich trifft."),
            ("A", "Das Gewerbe und der Detailhandel leiden bereits unter dem starken Franken. Eine höhere MWST schadet ihnen zusätzlich."),
            ("A", "Jede Erhöhung der Mehrwertsteuer wird am Ende nie wieder rückgängig gemacht."),
            ("A", "Statt neue Steuern braucht es eine Schuldenbremse für die AHV."),
            ("A", "Als Rentner spüre ich jede Preiserhöhung im Alltag. Eine höhere Mehrwertsteuer frisst die Rentenerhöhung gleich wieder auf.", {"gender": "Männlich", "age": "65+"}),
            ("A", "Die Gewinne der Nationalbank sollten für die AHV verwendet werden, nicht das Portemonnaie der Konsumenten."),
            ("A", "Keine höhere MWST!"),
        ],
        "fr": [
            ("F", "L'AVS a besoin de nouvelles recettes. Une hausse modérée de la TVA répartit l'effort sur l'ensemble de la population."),
            ("F", "Mieux vaut augmenter la TVA que réduire les rentes ou relever l'âge de la retraite."),
            ("F", "Les retraités paient aussi la TVA : toutes les générations participent ainsi au financement de l'AVS."),
            ("F", DUP_VAT),
            ("F", DUP_VAT),
            ("F", "Avec le départ à la retraite des baby-boomers, l'AVS manquera de milliards. Une hausse de la TVA est la solution la plus rapide."),
            ("A", "La TVA frappe surtout les familles et les bas revenus. C'est un impôt antisocial."),
            ("A", "Augmenter la TVA ne règle pas les problèmes structurels de l'AVS."),
            ("A", "Non, le pouvoir d'achat des ménages est déjà sous pression."),
            ("A", "Le commerce de détail souffre déjà du tourisme d'achat en France. Une TVA plus élevée aggraverait la situation."),
            ("A", "Le financement de l'AVS doit passer par les cotisations salariales et les bénéfices de la BNS, pas par la TVA."),
            ("A", "Une hausse de la TVA n'est jamais temporaire."),
        ],
        "it": [
            ("F", "L'AVS ha bisogno di nuove entrate. Un aumento moderato dell'IVA è il modo più equo per garantire le rendite."),
            ("F", "Meglio un po' più di IVA che rendite più basse o un'età pensionabile più alta."),
            ("F", "Anche i pensionati pagano l'IVA: così tutte le generazioni contribuiscono al finanziamento dell'AVS."),
            ("F", "Sì, per garantire le rendite delle future generazioni."),
            ("A", "L'IVA colpisce soprattutto le famiglie e i redditi bassi. Non è una soluzione sociale."),
            ("A", "In Ticino il turismo degli acquisti in Italia è già un problema. Un'IVA più alta danneggerebbe ancora di più il commercio locale."),
            ("A", "No a nuove imposte sui consumi. Bisogna riformare l'AVS in modo strutturale."),
        ],
    },
    {
        "key": "nuclear-ban",
        "split": "test",
        "topic": "Infrastructure & Environment",
        "lean": 0.9,
        "questions": {
            "de": "Soll der Bau neuer Atomkraftwerke in der Schweiz verboten werden?",
            "fr": "La construction de nouvelles centrales nucléaires doit-elle être interdite en Suisse ?",
            "it": "La costruzione di nuove centrali nucleari in Svizzera dovrebbe essere vietata?",
        },
        "de": [
            ("F", "Die Atomkraft ist eine Hochrisikotechnologie. Fukushima hat gezeigt, was passieren kann."),
            ("F", "Die Entsorgung des Atommülls ist nach Jahrzehnten immer noch nicht gelöst. Neue AKW sind unverantwortlich."),
            ("F", "Neue Atomkraftwerke sind viel zu teuer und brauchen über 15 Jahre Bauzeit. Sonne und Wind sind schneller und günstiger."),
            ("F", "Das Volk hat 2017 der Energiestrategie 2050 zugestimmt. Dieser Entscheid für den Atomausstieg muss gelten."),
            ("F", "Jeder Franken für neue AKW fehlt beim Ausbau der erneuerbaren Energien."),
            ("F", "Ja. Die Zukunft gehört Solarstrom, Wasserkraft und Effizienz."),
            ("F", "Kein Versicherer der Welt würde ein AKW gegen einen schweren Unfall versichern. Das Risiko trägt die Bevölkerung."),
            ("F", "Für Uran sind wir vollständig vom Ausland abhängig. Das ist keine sichere Versorgung."),
            ("F", "Die Baustellen in Finnland und Frankreich zeigen: Neue Reaktoren kosten ein Mehrfaches des Budgets und sind jahrelang verspätet."),
            ("F", "Als Mutter will ich meinen Kindern keinen Atommüll hinterlassen, der noch in 100'000 Jahren strahlt.", FEMALE),
            ("F", DUP_NUCLEAR),
            ("F", DUP_NUCLEAR),
            ("A", "Ohne Kernenergie droht im Winter eine Stromlücke. Ein Technologieverbot ist verantwortungslos."),
            ("A", "Atomkraftwerke produzieren Strom praktisch ohne CO2. Wer das Klima schützen will, darf die Kernenergie nicht verbieten."),
            ("A", "Neue Reaktoren der vierten Generation sind viel sicherer und produzieren weniger Abfall. Verbote verhindern Innovation."),
            ("A", "Die Schweiz kann ihren Strombedarf nicht allein mit Sonne und Wind decken, vor allem nicht mit immer mehr Elektroautos und Wärmepumpen."),
            ("A", "Nein. Wir dürfen uns nicht von Stromimporten aus Deutschland und Frankreich abhängig machen."),
            ("A", "Das Verbot neuer AKW war ein Fehler. Die Versorgungssicherheit muss Vorrang haben."),
            ("A", "Ein Technologieverbot gehört nicht in die Verfassung. Die Entscheidung soll den Investoren und dem Markt überlassen werden."),
            ("A", "Unsere AKW laufen seit Jahrzehnten sicher und zuverlässig."),
            ("A", "Wind- und Solarparks verschandeln die Landschaft. Ein einziges Kernkraftwerk braucht viel weniger Fläche."),
            ("A", "Als Ingenieur halte ich die Angst vor der Kernenergie für übertrieben. Moderne Anlagen sind sicher.", MALE),
            ("A", "Gaskraftwerke als Reserve sind schlechter fürs Klima als Atomstrom."),
        ],
        "fr": [
            ("F", "Le nucléaire est une technologie à haut risque. Fukushima l'a démontré."),
            ("F", "La question des déchets nucléaires n'est toujours pas réglée après des décennies. Construire de nouvelles centrales serait irresponsable."),
            ("F", "Les nouvelles centrales nucléaires coûtent des milliards et prennent plus de quinze ans à construire. Le solaire et l'éolien sont plus rapides."),
            ("F", "Le peuple a accepté la Stratégie énergétique 2050 et la sortie du nucléaire. Il faut respecter ce choix."),
            ("F", "Oui. L'avenir appartient aux énergies renouvelables et à l'efficacité énergétique."),
            ("F", "Le chantier de Flamanville montre que les nouveaux réacteurs font exploser les budgets et les délais."),
            ("F", "Le nucléaire n'est pas sans CO2 si l'on compte l'extraction de l'uranium."),
            ("A", "Sans nucléaire, la Suisse risque une pénurie d'électricité en hiver. Interdire une technologie est une erreur."),
            ("A", "Les centrales nucléaires produisent une électricité presque sans CO2. Elles sont indispensables pour le climat."),
            ("A", "Les réacteurs de nouvelle génération sont plus sûrs et produisent moins de déchets. Il ne faut pas fermer la porte à l'innovation."),
            ("A", "Non. Nous ne devons pas dépendre des importations d'électricité de France et d'Allemagne."),
            ("A", "L'interdiction des nouvelles centrales était une erreur. La sécurité d'approvisionnement doit primer."),
        ],
        "it": [
            ("F", "Il nucleare è una tecnologia ad alto rischio e il problema delle scorie non è risolto. Sì al divieto di nuove centrali."),
            ("F", "Le nuove centrali nucleari costano troppo e richiedono decenni. Meglio investire nel solare e nell'idroelettrico."),
            ("A", "Senza energia nucleare rischiamo una penuria di elettricità in inverno."),
            ("A", "Le centrali nucleari producono elettricità quasi senza CO2. Vietarle è un errore per il clima."),
        ],
    },
    {
        "key": "single-health-insurer",
        "split": "test",
        "topic": "Healthcare",
        "lean": 1.0,
        "questions": {
            "de": "Soll eine öffentliche Einheitskrankenkasse eingeführt werden?",
            "fr": "Faut-il introduire une caisse maladie publique unique ?",
            "it": "Si dovrebbe introdurre una cassa malati pubblica unica?",
        },
        "de": [
            ("F", "Die Krankenkassenprämien steigen jedes Jahr. Eine Einheitskasse spart Werbung, Maklerprovisionen und Verwaltungskosten."),
            ("F", "In der Grundversicherung gibt es keinen echten Wettbewerb, denn alle Kassen bieten die gleichen Leistungen an. Eine einzige öffentliche Kasse ist effizienter."),
            ("F", "Der jährliche Kassenwechsel ist ein teurer Leerlauf. Mit einer Einheitskasse wäre damit Schluss."),
            ("F", "Die Prämien fressen bei vielen Familien einen grossen Teil des Einkommens. Eine Einheitskasse würde endlich Transparenz schaffen."),
            ("F", "Die Jagd nach guten Risiken muss aufhören. Kranke und ältere Menschen dürfen nicht benachteiligt werden."),
            ("F", "Ja. Die SUVA zeigt, dass eine öffentliche Versicherung gut funktionieren kann."),
            ("F", "Über 50 Krankenkassen mit eigenen Chefs, eigenen Verwaltungen und eigener Werbung: Das bezahlen die Versicherten mit ihren Prämien."),
            ("F", "Als Hausärztin kämpfe ich täglich mit unterschiedlichen Formularen und Regeln der Kassen. Eine Einheitskasse würde viel Bürokratie abbauen.", FEMALE),
            ("F", "Gesundheit ist keine Ware. Die Grundversicherung gehört in die öffentliche Hand."),
            ("F", "Eine Einheitskasse könnte in Prävention investieren, statt Kunden abzuwerben."),
            ("F", "Endlich faire Prämien!"),
            ("F", "Endlich faire Prämien."),
            ("A", "Eine staatliche Einheitskasse schafft ein Monopol. Ohne Wettbewerb fehlt jeder Anreiz, effizient zu arbeiten."),
            ("A", "Die Verwaltungskosten der Krankenkassen machen nur etwa fünf Prozent der Kosten aus. Die Prämien steigen wegen der Gesundheitskosten, nicht wegen der Kassen."),
            ("A", "Das Volk hat die Einheitskasse bereits mehrmals abgelehnt, zuletzt 2014."),
            ("A", "Die Versicherten sollen ihre Krankenkasse frei wählen können. Eine Einheitskasse nimmt ihnen diese Freiheit."),
            ("A", "Nein. Eine Staatskasse führt zu Wartelisten und zu einer Zweiklassenmedizin wie in anderen Ländern."),
            ("A", "Die Umstellung auf eine Einheitskasse würde Milliarden kosten und Tausende Arbeitsplätze gefährden."),
            ("A", "Das Problem sind die steigenden Kosten im Gesundheitswesen. Dort müssen wir ansetzen, nicht bei den Krankenkassen."),
            ("A", "Der Wettbewerb zwischen den Kassen sorgt für guten Service und innovative Versicherungsmodelle wie das Hausarztmodell."),
            ("A", "Eine Einheitskasse ist der erste Schritt zur Verstaatlichung des ganzen Gesundheitswesens."),
            ("A", "Der Staat ist kein besserer Versicherer. Das zeigen die Probleme bei der IV."),
            ("A", "Wer garantiert, dass eine staatliche Kasse günstiger ist? Niemand."),
        ],
        "fr": [
            ("F", "Les primes d'assurance maladie augmentent chaque année. Une caisse unique économiserait les frais de publicité et de courtage."),
            ("F", "Dans l'assurance de base, toutes les caisses offrent les mêmes prestations. La concurrence est artificielle."),
            ("F", "Les changements de caisse chaque automne coûtent cher et n'apportent rien aux assurés."),
            ("F", "Les primes pèsent lourdement sur le budget des familles romandes. Une caisse publique apporterait enfin de la transparence."),
            ("F", "Oui. La chasse aux bons risques doit cesser ; les malades chroniques ne doivent plus être pénalisés."),
            ("F", "La santé n'est pas une marchandise. L'assurance de base doit être publique."),
            ("F", "Genève et Vaud paient des primes parmi les plus élevées de Suisse. Une caisse unique mettrait fin aux réserves excessives."),
            ("A", "Une caisse unique crée un monopole d'État sans aucune incitation à l'efficacité."),
            ("A", "Les frais administratifs des caisses ne représentent qu'environ 5 % des coûts. Les primes augmentent à cause des coûts de la santé."),
            ("A", "Le peuple a déjà refusé la caisse unique à plusieurs reprises."),
            ("A", "Non. Les assurés doivent pouvoir choisir librement leur caisse maladie."),
            ("A", "Une caisse publique mènerait à des listes d'attente et à une médecine à deux vitesses."),
            ("A", "Le problème, ce sont les coûts de la santé, pas le nombre de caisses."),
        ],
        "it": [
            ("F", "I premi della cassa malati aumentano ogni anno. Una cassa unica risparmierebbe i costi di pubblicità e di amministrazione."),
            ("F", "Nell'assicurazione di base tutte le casse offrono le stesse prestazioni. Una cassa pubblica unica è più efficiente."),
            ("F", "In Ticino i premi pesano molto sulle famiglie. Sì a una cassa malati pubblica."),
            ("F", "La salute non è una merce."),
            ("A", "Una cassa unica statale crea un monopolio senza concorrenza e senza incentivi all'efficienza."),
            ("A", "Gli assicurati devono poter scegliere liberamente la propria cassa malati."),
        ],
    },
]
DUPLICATES = (DUP_PENSION, DUP_TRANSIT, DUP_VAT, DUP_NUCLEAR)

# --------------------------------------------------------------------------------------------------
# building the corpus


@dataclass
class Argument:
    issue: int  # index into ISSUES
    language: str
    stance: str  # FAVOR or AGAINST
    text: str
    hints: dict[str, str]
    spectrum: str = ""
    argument_id: int = 0
    profile: dict = field(default_factory=dict)


def pick(rng: random.Random, values, weights):
    return rng.choices(values, weights=weights, k=1)[0]


def spectrum_weights(lean: float, stance: str) -> list[float]:
    """How likely each spectrum position (left to right) is to hold `stance` on an issue with `lean`."""
    sign = 1.0 if stance == "FAVOR" else -1.0
    weights = []
    for position in range(len(SPECTRUM)):
        left = (2 - position) / 2  # +1 far left … -1 far right
        weights.append(2.7 ** (1.3 * sign * lean * left))
    return weights


def read_arguments(rng: random.Random) -> list[Argument]:
    arguments = []
    for index, issue in enumerate(ISSUES):
        for language in LANGUAGES:
            for entry in issue[language]:
                stance = {"F": "FAVOR", "A": "AGAINST"}[entry[0]]
                hints = entry[2] if len(entry) > 2 else {}
                argument = Argument(index, language, stance, entry[1], dict(hints))
                argument.spectrum = pick(rng, SPECTRUM, spectrum_weights(issue["lean"], stance))
                arguments.append(argument)
    return arguments


def compatible(hints: dict[str, str], others: list[Argument]) -> bool:
    return all(other.hints.get(key, value) == value for other in others for key, value in hints.items())


def group_authors(rng: random.Random, arguments: list[Argument]) -> list[list[Argument]]:
    """Politicians: each writes in one language, at most one argument per issue, all from one spectrum position."""
    authors = []
    for language in LANGUAGES:
        for spectrum in SPECTRUM:
            pool = [a for a in arguments if a.language == language and a.spectrum == spectrum]
            rng.shuffle(pool)
            while pool:
                size = pick(rng, (1, 2, 3, 4), (3, 3, 2.5, 1.5))
                author = [pool.pop(0)]
                position = 0
                while len(author) < size and position < len(pool):
                    candidate = pool[position]
                    if candidate.issue not in {a.issue for a in author} and compatible(candidate.hints, author):
                        author.append(pool.pop(position))
                    else:
                        position += 1
                authors.append(sorted(author, key=lambda a: a.issue))
    rng.shuffle(authors)
    return authors


def draw_profile(rng: random.Random, language: str, spectrum: str, hints: dict[str, str]) -> dict:
    left = 2 - SPECTRUM.index(spectrum)  # 2 far left … -2 far right
    gender = hints.get("gender") or pick(rng, GENDERS, (1.35 - 0.15 * left, 1.0 + 0.15 * left))
    age = hints.get("age") or pick(rng, AGES, (0.9 + 0.1 * left, 1.0, 1.0, 0.5))
    residence = hints.get("residence") or pick(rng, RESIDENCES, (1.0 + 0.3 * left, 1.0, 1.0 - 0.3 * left))
    civil_weights = {
        "18-34": (7, 2.5, 0.5, 0),
        "35-49": (3, 5.5, 1.5, 0),
        "50-64": (1.5, 6, 2, 0.5),
        "65+": (1, 5.5, 1.5, 2),
    }[age]
    civil_status = pick(rng, CIVIL_STATUSES, civil_weights)
    denomination_weights = {
        "de": [3.0, 3.5, 2.5, 0.5, 0.5],
        "fr": [4.0, 2.5, 2.5, 0.5, 0.5],
        "it": [7.0, 0.7, 1.5, 0.3, 0.5],
    }[language]
    denomination_weights[2] *= 1.0 + 0.25 * left  # the left is more often without a confession
    denomination = pick(rng, DENOMINATIONS, denomination_weights)
    education = pick(rng, EDUCATIONS, (0.4, 2.5, 1.0, 1.5, 2.0, 2.6 + 0.2 * left))
    count = pick(rng, (0, 1, 2, 3), (1, 2, 3, 3))
    issues: list[str] = []
    weights = [ISSUE_WEIGHTS[name][SPECTRUM.index(spectrum)] for name in POLITICAL_ISSUES]
    while len(issues) < count:
        name = pick(rng, POLITICAL_ISSUES, weights)
        if name not in issues:
            issues.append(name)
    return {
        "gender": gender,
        "age": age,
        "residence": residence,
        "civil_status": civil_status,
        "denomination": denomination,
        "education": education,
        "political_spectrum": spectrum,
        "important_political_issues": [name for name in POLITICAL_ISSUES if name in issues],
    }


def build_corpus(rng: random.Random) -> tuple[list[Argument], list[list[Argument]]]:
    arguments = read_arguments(rng)
    authors = group_authors(rng, arguments)
    next_id = FIRST_ARGUMENT_ID
    for author in authors:
        hints: dict[str, str] = {}
        for argument in author:
            hints.update(argument.hints)
        profile = draw_profile(rng, author[0].language, author[0].spectrum, hints)
        for argument in author:
            argument.profile = profile
            argument.argument_id = next_id
            next_id += 1
    corpus = [argument for author in authors for argument in author]
    return corpus, authors


# --------------------------------------------------------------------------------------------------
# queries


def has_property(argument: Argument, key: str, value: str) -> bool:
    field_value = argument.profile[QUERY_PROPERTIES[key]]
    return value in field_value if key == "important_political_issue" else field_value == value


def property_values(arguments: list[Argument], key: str) -> Counter:
    counts: Counter = Counter()
    for argument in arguments:
        field_value = argument.profile[QUERY_PROPERTIES[key]]
        for value in field_value if key == "important_political_issue" else [field_value]:
            counts[value] += 1
    return counts


def choose_properties(rng: random.Random, arguments: list[Argument], used: Counter) -> list[tuple[str, str]]:
    """2 or 3 properties with different keys, each held by the authors of at least 3 and at most 2/3 of the issue's arguments.

    Keys used less often so far are preferred, so that every key occurs across the query files.
    """
    size = pick(rng, (2, 3), (1, 1))
    keys = list(QUERY_PROPERTIES)
    rng.shuffle(keys)
    keys.sort(key=lambda key: used[key])
    chosen: list[tuple[str, str]] = []
    for key in keys:
        counts = property_values(arguments, key)
        values = sorted(value for value, count in counts.items() if 3 <= count <= 2 * len(arguments) // 3)
        if not values:
            continue
        value = pick(rng, values, [counts[v] for v in values])
        chosen.append((key, value))
        used[key] += 1
        if len(chosen) == size:
            break
    return chosen


def build_queries(rng: random.Random, corpus: list[Argument]) -> tuple[dict, dict]:
    baseline = {split: [] for split in SPLITS}
    perspective = {split: [] for split in SPLITS}
    baseline_id = FIRST_BASELINE_QUERY_ID
    perspective_id = FIRST_PERSPECTIVE_QUERY_ID
    used: Counter = Counter()
    for index, issue in enumerate(ISSUES):
        on_issue = [a for a in corpus if a.issue == index]
        relevant = sorted(a.argument_id for a in on_issue)
        for language in LANGUAGES:
            text = issue["questions"][language]
            baseline[issue["split"]].append({"query_id": baseline_id, "text": text, "relevant_candidates": relevant})
            baseline_id += 1
            for key, value in choose_properties(rng, on_issue, used):
                matching = sorted(a.argument_id for a in on_issue if has_property(a, key, value))
                perspective[issue["split"]].append(
                    {
                        "query_id": perspective_id,
                        "text": text,
                        "demographic_property": {key: value},
                        "relevant_candidates": matching,
                    }
                )
                perspective_id += 1
    for queries in (baseline["test"], perspective["test"]):
        for query in queries:
            del query["relevant_candidates"]  # unseen test issues come without judgments
    return baseline, perspective


# --------------------------------------------------------------------------------------------------
# writing and checking


def dump(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


def write_lines(path: Path, records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(dump(record) + "\n" for record in records), encoding="utf-8", newline="\n")


def corpus_record(argument: Argument) -> dict:
    return {
        "argument_id": argument.argument_id,
        "argument": argument.text,
        "stance": argument.stance,
        "topic": ISSUES[argument.issue]["topic"],
        "demographic_profile": argument.profile,
    }


def check(corpus: list[Argument], authors: list[list[Argument]], baseline: dict, perspective: dict) -> list[str]:
    """Everything the README promises about the files, read back from disk; returns the failures."""
    failures = []
    records = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    by_id = {record["argument_id"]: record for record in records}
    if len(by_id) != len(records):
        failures.append("argument ids repeat")
    profile_keys = list(QUERY_PROPERTIES.values())
    for record in records:
        if list(record) != ["argument_id", "argument", "stance", "topic", "demographic_profile"]:
            failures.append(f"argument {record['argument_id']}: keys {list(record)}")
        if list(record["demographic_profile"]) != profile_keys:
            failures.append(f"argument {record['argument_id']}: profile keys {list(record['demographic_profile'])}")
        if not 0 <= len(record["demographic_profile"]["important_political_issues"]) <= 3:
            failures.append(f"argument {record['argument_id']}: too many important issues")
    for name in profile_keys:
        values = {json.dumps(r["demographic_profile"][name]) for r in records}
        if name == "important_political_issues":
            values = {issue for r in records for issue in r["demographic_profile"][name]}
            if len(values) < len(POLITICAL_ISSUES):
                failures.append("not every political issue is somebody's important issue")
        if len(values) < 2:
            failures.append(f"{name} is constant over the corpus")
    texts = Counter(record["argument"] for record in records)
    repeated = sorted(text for text, count in texts.items() if count > 1)
    if repeated != sorted(DUPLICATES) or any(texts[text] != 2 for text in DUPLICATES):
        failures.append(f"duplicate texts are {repeated}, expected the {len(DUPLICATES)} deliberate pairs")
    for author in authors:
        if len({a.issue for a in author}) != len(author) or len({a.language for a in author}) != 1:
            failures.append(f"author of {[a.argument_id for a in author]} writes twice on an issue or in two languages")
        for argument in author:
            for key, value in argument.hints.items():
                if argument.profile[key] != value:
                    failures.append(f"argument {argument.argument_id}: hint {key}={value} not in its profile")
    by_issue = {index: sorted(a.argument_id for a in corpus if a.issue == index) for index in range(len(ISSUES))}
    arguments_by_id = {a.argument_id: a for a in corpus}
    seen_issues = {split: set() for split in SPLITS}
    for folder, files in (("baseline-queries", baseline), ("perspective-queries", perspective)):
        for split in SPLITS:
            path = DATA / folder / f"queries_{split}.jsonl"
            lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
            if lines != files[split]:
                failures.append(f"{path.name} in {folder} does not read back as written")
            for query in lines:
                index = next(i for i, issue in enumerate(ISSUES) if query["text"] in issue["questions"].values())
                seen_issues[split].add(index)
                if ISSUES[index]["split"] != split:
                    failures.append(f"query {query['query_id']} is in {split}, its issue in {ISSUES[index]['split']}")
                expected_keys = ["query_id", "text"]
                if folder == "perspective-queries":
                    expected_keys.append("demographic_property")
                if split != "test":
                    expected_keys.append("relevant_candidates")
                if list(query) != expected_keys:
                    failures.append(f"query {query['query_id']}: keys {list(query)}")
                    continue
                if folder == "baseline-queries":
                    expected = by_issue[index]
                else:
                    ((key, value),) = query["demographic_property"].items()
                    expected = sorted(i for i in by_issue[index] if has_property(arguments_by_id[i], key, value))
                    if len(expected) < 3:
                        failures.append(f"query {query['query_id']}: only {len(expected)} relevant arguments")
                if split != "test":
                    if any(i not in by_id for i in query["relevant_candidates"]):
                        failures.append(f"query {query['query_id']}: unknown relevant id")
                    if query["relevant_candidates"] != expected:
                        failures.append(f"query {query['query_id']}: relevant set differs from the issue's filter")
    if any(seen_issues[a] & seen_issues[b] for a in SPLITS for b in SPLITS if a < b):
        failures.append("an issue occurs in two splits")
    keys = {key for split in SPLITS for q in perspective[split] for key in q["demographic_property"]}
    if keys != set(QUERY_PROPERTIES):
        failures.append(f"perspective queries use only {sorted(keys)}")
    all_ids = [q["query_id"] for files in (baseline, perspective) for split in SPLITS for q in files[split]]
    if len(set(all_ids)) != len(all_ids):
        failures.append("query ids repeat")
    return failures


def report(corpus: list[Argument], authors: list[list[Argument]], perspective: dict) -> None:
    print(f"{len(corpus)} arguments by {len(authors)} authors")
    print("issue                       split  de(F/A)   fr(F/A)   it(F/A)   all")
    for index, issue in enumerate(ISSUES):
        cells = []
        for language in LANGUAGES:
            these = [a for a in corpus if a.issue == index and a.language == language]
            favor = sum(a.stance == "FAVOR" for a in these)
            cells.append(f"{len(these):2d}({favor:2d}/{len(these) - favor:2d})")
        total = sum(a.issue == index for a in corpus)
        print(f"{issue['key']:27s} {issue['split']:5s}  {'  '.join(cells)}  {total}")
    print("languages:", dict(Counter(a.language for a in corpus)))
    print("author sizes:", dict(sorted(Counter(len(author) for author in authors).items())))
    for name in QUERY_PROPERTIES.values():
        counts = Counter()
        for a in corpus:
            value = a.profile[name]
            for v in value if isinstance(value, list) else [value]:
                counts[v] += 1
        print(f"{name}: {dict(sorted(counts.items()))}")
    spectrum_by_stance = Counter((a.stance, a.profile["political_spectrum"]) for a in corpus)
    print("stance x spectrum:", {k: spectrum_by_stance[k] for k in sorted(spectrum_by_stance)})
    for split in SPLITS:
        queries = perspective[split]
        keys = Counter(next(iter(q["demographic_property"])) for q in queries)
        print(f"perspective {split}: {len(queries)} queries, keys {dict(sorted(keys.items()))}")
        for q in queries:
            relevant = q.get("relevant_candidates")
            size = len(relevant) if relevant is not None else "-"
            print(f"  {q['query_id']}: {q['demographic_property']} relevant {size}")
    for text in DUPLICATES:
        ids = [a.argument_id for a in corpus if a.text == text]
        print(f"duplicate {ids}: {text}")


def main() -> int:
    rng = random.Random(SEED)
    corpus, authors = build_corpus(rng)
    baseline, perspective = build_queries(rng, corpus)
    write_lines(DATA / "corpus.jsonl", [corpus_record(argument) for argument in corpus])
    for folder, files in (("baseline-queries", baseline), ("perspective-queries", perspective)):
        for split in SPLITS:
            write_lines(DATA / folder / f"queries_{split}.jsonl", files[split])
    report(corpus, authors, perspective)
    failures = check(corpus, authors, baseline, perspective)
    for failure in failures:
        print("CHECK FAILED:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
