"""Generate a second development set of end-to-end supersession cases.

This is the second development set for issue 19 item 3. Its cases check, end
to end, whether a later statement closes an earlier fact. Every sentence here
was written by hand from a sense of how people actually talk to a personal
assistant over months. The author did not read the engine, its schema, or the
other supersession sets, so this set stays independent of them.

Each case is one user talking about themselves in the first person over two
turns, sometimes three. Each case falls into one of four categories:

* ``contradiction_unregistered``: the later turn replaces a personal attribute
  that is not one of the usual registered ones (dentist, broadband provider,
  alarm time, rent, running-club night, ...). ``stale`` is the old value exactly
  as written in the first turn, and ``expect_supersession`` is true. About half
  of the later turns name the old value as well.
* ``multi_valued_addition``: the later turn adds a second value of something
  people have several of (a second cat, another instrument, another club).
  Nothing should be closed.
* ``unrelated_same_subject``: the later turn gives a different attribute of the
  same person, often close in wording or domain (dentist, then the date of the
  next check-up). Nothing should be closed.
* ``old_value_mentioned_kept``: the later turn mentions the old value but keeps
  it. This covers praise, a complaint, a detail, moving something into it, an
  addition alongside it, a "from ... to ..." about something else, or a "now"
  about something else. Nothing should be closed.

The output is deterministic (``random.Random(SEED)``) and uses the standard
library only.

Usage:
    python3 eval/make_supersession_dev2.py           # write the data file
    python3 eval/make_supersession_dev2.py --check   # exit 1 if it would change
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import sys
from pathlib import Path

SEED = 1923

sys.path.insert(0, str(Path(__file__).resolve().parent))
from jsonl_file import write_or_check  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "supersession_dev2.jsonl"
CASES_PER_PAIR = 3
MIDDLE_TURN_RATE = 0.2  # must stay <= 0.25 overall

SPEAKERS = [
    "Amara", "Ben", "Chloe", "Dmitri", "Elena", "Farah", "Gareth", "Hana",
    "Isaac", "Jess", "Kenji", "Leila", "Mateo", "Nadia", "Owen", "Priya",
    "Quinn", "Rosa", "Sam", "Tomasz", "Uma", "Victor", "Wen", "Yusuf", "Zoe",
    "Aisling", "Bongani", "Hamish", "Ingrid", "Lars", "Freya", "Callan",
]

SMALL_TALK = [
    "Ugh, it's been raining all week.",
    "Can you remind me to call my mum on Sunday?",
    "What's a good recipe for banana bread?",
    "Long day today, honestly.",
    "Thanks for the help with that email earlier!",
    "Any tips for getting to sleep faster?",
    "Did I tell you I finished that book? Loved it.",
    "Remind me to water the plants tomorrow.",
    "How many grams is a cup of flour?",
    "Weekend plans: absolutely nothing. Can't wait.",
    "What time does it get dark this time of year?",
    "Set a reminder to put the bins out tonight, please.",
    "My neighbour's cat is in our garden again, ha.",
    "Can you help me write a birthday message for my niece?",
    "lol I just walked into a glass door at the shopping centre",
]

# ---------------------------------------------------------------------------
# contradiction_unregistered: (first template, later template, [(old, new)])
# ---------------------------------------------------------------------------
CONTRADICTION = [
    ("My dentist is {old} over on the high street.",
     "I've switched dentists, I'm with {new} now.",
     [("Dr. Okafor", "Dr. Lindqvist"), ("Dr. Patel", "Dr. Moreau"),
      ("Dr. Hughes", "Dr. Tanaka"), ("Dr. Brennan", "Dr. Castillo")]),
    ("I'm registered with {old} at the Millbrook surgery, she's been my GP for years.",
     "fyi my GP is {new} now, {old} retired in the spring.",
     [("Dr. Salter", "Dr. Mensah"), ("Dr. Ahmed", "Dr. Whitfield"),
      ("Dr. Kowalski", "Dr. Ruiz")]),
    ("I see a physio called {old} for my knee every other week.",
     "Stopped going to {old}. My new physio, {new}, actually listens.",
     [("Jonas", "Aoife"), ("Marek", "Delphine"), ("Siobhan", "Rafael")]),
    ("I get my eyes tested at {old}.",
     "Next eye test I'm booking at {new}, I've moved over to them for good.",
     [("Specsavers", "Vision Express"), ("Boots Opticians", "Leightons"),
      ("Warby Parker", "LensCrafters"), ("Costco Optical", "Warby Parker")]),
    ("Our vet is {old}, they've looked after Biscuit since she was a puppy.",
     "We moved Biscuit over to {new} because {old} kept overcharging us.",
     [("Oakfield Vets", "Riverside Animal Clinic"), ("Banfield", "VCA Westside"),
      ("Medivet", "the PDSA clinic")]),
    ("I get my hair cut at {old} every six weeks or so.",
     "Finally found a new place to get my hair cut, {new}, and I'm never going back to the old one.",
     [("Toni & Guy", "Fade Street Barbers"), ("Supercuts", "Salon Verde"),
      ("Rush", "The Chair on Mill Lane")]),
    ("{old} has been cutting my hair for years, she's brilliant.",
     "Had my first cut with {new} today and I'm sticking with her, since {old}'s gone part-time and can't fit me in any more.",
     [("Sinead", "Lola"), ("Kerry", "Yasmin"), ("Bella", "Noor")]),
    ("I'm a member at {old}, I go most mornings before work.",
     "Cancelled my {old} membership and joined {new} instead, it's a five-minute walk.",
     [("PureGym", "The Gym Group"), ("Planet Fitness", "Equinox"),
      ("Anytime Fitness", "24 Hour Fitness"), ("David Lloyd", "Nuffield Health")]),
    ("I do yoga at {old} on Friday evenings.",
     "These days I'm doing my yoga at {new}, way nicer teachers.",
     [("Triyoga", "Hot Pod Yoga"), ("CorePower", "YogaWorks"),
      ("the Lotus Room", "Bend Studio")]),
    ("I bank with {old}.",
     "Moved my current account over to {new} last week, so that's my main bank now.",
     [("Barclays", "Monzo"), ("Lloyds", "Starling"), ("HSBC", "Nationwide"),
      ("NatWest", "Chase UK")]),
    ("Honestly I've banked with {old} since college.",
     "Closed my {old} checking account, everything's at {new} now.",
     [("Wells Fargo", "Capital One"), ("Bank of America", "Ally"),
      ("Chase", "Summit Credit Union")]),
    ("The card I use for basically everything is my {old}.",
     "I cut up the {old}, my everyday card is the {new} now.",
     [("Amex Gold", "Chase Sapphire Preferred"),
      ("Barclaycard", "Amex Platinum Cashback"), ("Discover it", "Citi Double Cash")]),
    ("My phone contract's with {old}.",
     "Ported my number to {new} yesterday, way cheaper.",
     [("Vodafone", "giffgaff"), ("EE", "Three"), ("O2", "Lebara"),
      ("Verizon", "Mint Mobile")]),
    ("I've been with {old} for my mobile for about three years now, no complaints really.",
     "Just so you know, I left {old} after the price hike and I'm on {new} now.",
     [("T-Mobile", "Visible"), ("Three", "Smarty"), ("AT&T", "Cricket")]),
    ("Our broadband's with {old} and it's been fine, mostly.",
     "The {new} engineer came round today, so we're finally off {old}.",
     [("BT", "Community Fibre"), ("Virgin Media", "Hyperoptic"),
      ("Sky", "Zen Internet")]),
    ("We get our internet through {old}.",
     "We switched internet providers. It's {new} now.",
     [("Comcast Xfinity", "AT&T Fiber"), ("Spectrum", "Verizon Fios"),
      ("Cox", "Google Fiber")]),
    ("Our gas and electric is with {old}.",
     "We've switched energy supplier to {new}, the first bill's already lower.",
     [("British Gas", "Octopus Energy"), ("EDF", "Ovo"), ("E.ON", "Octopus"),
      ("Scottish Power", "Outfox the Market")]),
    ("Our home insurance is through {old}.",
     "Renewal came in at a silly price so I've moved the home insurance to {new}.",
     [("Aviva", "Direct Line"), ("Admiral", "LV="), ("State Farm", "Lemonade"),
      ("Allstate", "Progressive")]),
    ("The only streaming service I pay for is {old}.",
     "I cancelled {old} and signed up for {new}, that's my one subscription now.",
     [("Netflix", "Disney+"), ("Hulu", "Max"), ("Prime Video", "Apple TV+"),
      ("Paramount+", "Netflix")]),
    ("I listen to all my music on {old}.",
     "Been using {new} for music since the summer, the sound quality's so much better.",
     [("Spotify", "Apple Music"), ("YouTube Music", "Tidal"),
      ("Amazon Music", "Qobuz"), ("Deezer", "Spotify")]),
    ("I read my email in {old} on the laptop.",
     "Dropped {old}. I do all my email in {new} now.",
     [("Outlook", "Thunderbird"), ("Apple Mail", "Spark"),
      ("Thunderbird", "Mimestream"), ("Spark", "Superhuman")]),
    ("All my notes live in {old}.",
     "I migrated everything to {new} over the weekend, so that's where my notes are now.",
     [("Evernote", "Obsidian"), ("Notion", "Bear"), ("OneNote", "Apple Notes"),
      ("Bear", "Logseq")]),
    ("I keep my schedule in {old}.",
     "Switched calendar apps. It's {new} from now on, not {old}.",
     [("Google Calendar", "Fantastical"), ("Outlook Calendar", "Notion Calendar"),
      ("Fantastical", "Google Calendar"), ("Apple Calendar", "Morgen")]),
    ("For to-dos I use {old}, it's the one app I open every morning.",
     "I've moved my to-do list into {new}; gave up on {old} after it lost a bunch of tasks.",
     [("Todoist", "Things"), ("TickTick", "Todoist"),
      ("Microsoft To Do", "OmniFocus"), ("Things", "TickTick")]),
    ("My side projects are all hosted on {old}.",
     "Moved all my repos off {old} and onto {new}.",
     [("GitHub", "Codeberg"), ("GitLab", "GitHub"), ("Bitbucket", "GitLab"),
      ("GitHub", "SourceHut")]),
    ("My personal server runs on a {old} box.",
     "Spun down the old server, everything runs on {new} now.",
     [("DigitalOcean", "Hetzner"), ("Linode", "Vultr"), ("Hetzner", "OVHcloud")]),
    ("I write code in {old}, have done for ages.",
     "Finally made the jump to {new} for coding.",
     [("VS Code", "Neovim"), ("Sublime Text", "Zed"), ("Vim", "VS Code"),
      ("PyCharm", "Helix"), ("Emacs", "Cursor")]),
    ("My running coach is {old}, she writes all my training plans.",
     "{new} is coaching me now. {old} moved to Leeds and stopped taking clients.",
     [("Becky", "Marcus"), ("Ines", "Tom"), ("Harriet", "Kwame")]),
    ("My Spanish tutor is {old}; we do an hour on Zoom every Sunday.",
     "New Spanish tutor as of this month: {new}.",
     [("Lucía", "Andrés"), ("Mercedes Ortiz", "Javier Molina"),
      ("Señora Vidal", "Pilar")]),
    ("I have piano lessons with {old} on Thursday evenings.",
     "I'm learning piano with {new} now, I stopped the lessons with {old} at Christmas.",
     [("Mrs. Fielding", "Mr. Osei"), ("Anton", "Grace Liu"), ("Mr. Park", "Eleanor")]),
    ("I've been seeing a therapist, {old}, since last autumn.",
     "I started with a new therapist a few weeks ago. Her name's {new}, and honestly it's going better.",
     [("Daniel", "Ruth"), ("Dr. Abernathy", "Maya"), ("Sean", "Dr. Kaur")]),
    ("Our landlord is {old}, he's pretty hands-off.",
     "The building got sold, so {new} is our landlord now.",
     [("Mr. Dawson", "Greystone Lettings"), ("Stelios", "Harbour Property Management"),
      ("Gary Pruitt", "Oakline Residential")]),
    ("Our nanny, {old}, does Monday to Thursday.",
     "{old} left us in June, so we've got a new nanny, {new}.",
     [("Beatriz", "Hannah"), ("Mia", "Rosalind"), ("Joanna", "Tendai")]),
    ("We've got a cleaner, {old}, who comes every Wednesday. She's lovely.",
     "Just so you know, our cleaner's {new} now.",
     [("Magda", "Lorraine"), ("Teresa", "Ana"), ("Sunita", "Bev")]),
    ("My accountant is {old}, they do my self-assessment every January.",
     "This year my tax return's being done by {new} instead of {old}.",
     [("Hartley & Co", "Pennywise Accounting"), ("Bluestone Tax", "Jenny Cho"),
      ("Fairbairn Partners", "TaxScouts")]),
    ("My bike gets serviced at {old}.",
     "The bike's going to {new} for servicing from now on, {old} got too pricey.",
     [("Evans Cycles", "the Bike Kitchen"), ("Halfords", "Pedal Power on King Street"),
      ("REI", "Wheelhouse Bikes")]),
    ("{old} walks our dog at lunchtime on weekdays.",
     "New dog walker started this week, a lad called {new}.",
     [("Tasha", "Callum"), ("Mr. Pell", "Jordan"), ("Gwen", "Femi")]),
    ("My commute is about {old} each way.",
     "Since they moved the office, my commute's {new} instead of {old}.",
     [("45 minutes", "20 minutes"), ("an hour and ten minutes", "35 minutes"),
      ("25 minutes", "almost an hour")]),
    ("I get to work by {old} most days.",
     "These days I go in by {new}, it's less hassle.",
     [("train", "bike"), ("bus", "e-scooter"), ("tube", "bike"), ("car", "train")]),
    ("I'm based in {old} on the main campus.",
     "Heads up, they've moved my team to {new}, so that's where I sit now.",
     [("Building 4", "Building 9"), ("the Maxwell building", "the Turing building"),
      ("Block C", "Block F")]),
    ("I sit at desk {old} on the third floor.",
     "Got moved to desk {new} in the seating reshuffle, {old} went to a new starter.",
     [("3.14", "4.07"), ("B12", "D3"), ("217", "305")]),
    ("There are {old} of us on my team.",
     "After the reorg my team's {new} people.",
     [("six", "eleven"), ("four", "nine"), ("twelve", "seven")]),
    ("Our team's weekly sync is on {old}.",
     "The weekly sync's moved from {old} to {new}.",
     [("Mondays at 10", "Tuesdays at 2"), ("Thursdays at 9:30", "Wednesdays at 11"),
      ("Fridays at 4pm", "Mondays at 9am")]),
    ("My pottery class is on {old} nights.",
     "Pottery's switched to {new} nights, the studio changed the timetable.",
     [("Tuesday", "Wednesday"), ("Monday", "Thursday"), ("Wednesday", "Tuesday")]),
    ("I run with the club on {old}.",
     "btw running club's on {new} now, not {old}.",
     [("Thursdays", "Tuesdays"), ("Saturday mornings", "Sunday mornings"),
      ("Wednesday evenings", "Monday evenings")]),
    ("My long run on Sundays is {old}.",
     "I've built my long run up to {new}.",
     [("10 miles", "14 miles"), ("12k", "18k"), ("8 miles", "13 miles"),
      ("15k", "a half marathon")]),
    ("I'm usually in bed by {old}.",
     "I've been going to bed around {new} lately, trying to get more sleep.",
     [("11:30", "10:15"), ("midnight", "10:30"), ("1am", "11pm")]),
    ("My alarm goes off at {old} every weekday.",
     "I moved my alarm from {old} to {new} so I can fit in a run before work.",
     [("6:15", "5:45"), ("7am", "6:30am"), ("6:45", "6:00"), ("7:30", "7:00")]),
    ("Rent's {old} a month for our place.",
     "The landlord's put the rent up to {new} a month, ugh.",
     [("£1,200", "£1,350"), ("$2,100", "$2,400"), ("€950", "€1,040")]),
    ("We pay {old} in rent each month.",
     "Rent went from {old} to {new} when we renewed the lease.",
     [("$1,200", "$1,350"), ("$1,850", "$1,975"), ("£875", "£925")]),
    ("I'm on {old} a year at the moment.",
     "Got the raise! My salary's {new} now.",
     [("£42,000", "£47,500"), ("$85k", "$96k"), ("€51,000", "€55,000")]),
    ("I try to stick to a grocery budget of {old} a month.",
     "We've upped the grocery budget to {new} a month because prices are mad at the moment.",
     [("£300", "£380"), ("$600", "$750"), ("€400", "€480")]),
    ("I give myself {old} a month for eating out and fun stuff.",
     "I've cut my fun money down to {new} a month while we save for the wedding.",
     [("£250", "£150"), ("$400", "$250"), ("€200", "€120")]),
    ("My usual coffee order is {old}.",
     "Not {old} any more, by the way. These days my usual is {new}.",
     [("a flat white", "an oat cortado"), ("an oat latte", "a long black"),
      ("a cappuccino", "a black americano"), ("an iced latte", "a cold brew")]),
    ("We do our big weekly shop at {old}.",
     "We've started doing the weekly shop at {new} instead, it's loads cheaper.",
     [("Tesco", "Aldi"), ("Sainsbury's", "Lidl"), ("Waitrose", "Tesco"),
      ("Kroger", "Costco")]),
    ("My prescriptions go to {old}.",
     "I had my prescriptions transferred to {new}, {old} kept running out of stock.",
     [("the Boots on Market Street", "the Lloyds pharmacy by the station"),
      ("the CVS on Elm Street", "the Walgreens on 5th"),
      ("Rite Aid", "the pharmacy inside Target")]),
    ("I always fly {old} when I can, I've got status with them.",
     "I've given up on {old}; I'm flying {new} for everything now.",
     [("BA", "Virgin Atlantic"), ("United", "Delta"), ("KLM", "Lufthansa"),
      ("Qantas", "Emirates")]),
    ("I'm on the {old} at the moment, phone-wise.",
     "Upgraded to the {new} yesterday!",
     [("Pixel 6", "iPhone 15"), ("iPhone 12 mini", "Galaxy S24"),
      ("Galaxy S21", "Pixel 8")]),
    ("My work laptop's a {old}.",
     "IT finally swapped my laptop, I'm on a {new} now and the {old} is gone.",
     [("ThinkPad X1 Carbon", "MacBook Pro 14"), ("Dell XPS 13", "Framework 13"),
      ("MacBook Air M1", "ThinkPad T14")]),
    ("I use {old} as my browser.",
     "Switched browsers to {new}. Goodbye {old}!",
     [("Chrome", "Firefox"), ("Safari", "Arc"), ("Edge", "Brave"),
      ("Firefox", "Vivaldi")]),
    ("All my passwords are in {old}.",
     "After the breach news I moved all my passwords to {new}.",
     [("LastPass", "1Password"), ("Dashlane", "Bitwarden"),
      ("1Password", "Proton Pass")]),
    ("The podcast I always have on during my commute is {old}.",
     "I've stopped listening to {old}; my commute podcast is {new} now.",
     [("The Rest Is History", "Hard Fork"), ("Serial", "99% Invisible"),
      ("The Daily", "Today, Explained")]),
    ("We go to {old} on Sundays.",
     "We've started going to {new} instead, the kids love the youth group there.",
     [("St Mary's", "Grace Community Church"), ("St. Anne's", "Christ Church"),
      ("the Baptist church on Hill Road", "St Luke's")]),
    ("I volunteer at the food bank on {old}.",
     "My food bank shift has moved to {new}.",
     [("Saturday mornings", "Thursday evenings"),
      ("Tuesday afternoons", "Friday mornings"), ("alternate Sundays", "Wednesdays")]),
    ("My allotment is plot {old} at Ferry Lane.",
     "I swapped to plot {new}, it gets way more sun than {old} did.",
     [("14", "27"), ("3B", "11A"), ("52", "8")]),
    ("I park in bay {old} at work.",
     "They reassigned the parking and I'm in bay {new} now.",
     [("17", "42"), ("C9", "A3"), ("104", "68")]),
    ("My locker at the gym is number {old}.",
     "I moved lockers, mine's {new} now instead of {old}.",
     [("23", "58"), ("112", "7"), ("41", "90")]),
]

# ---------------------------------------------------------------------------
# multi_valued_addition: (first template, later template, [(a, b)])
# ---------------------------------------------------------------------------
MULTI = [
    ("We've got a cat called {a}.",
     "We adopted a second cat last weekend, {b}, so now there are two of them.",
     [("Miso", "Pickle"), ("Luna", "Bramble"), ("Oscar", "Pepper")]),
    ("I play the {a}.",
     "I've started learning the {b} as well, on top of the {a}.",
     [("guitar", "cello"), ("piano", "ukulele"), ("violin", "drums")]),
    ("I'm really into {a} at the moment.",
     "Picked up {b} this year too, alongside the {a}.",
     [("bouldering", "sourdough baking"), ("birdwatching", "film photography"),
      ("knitting", "sea swimming")]),
    ("I play {a} on weekends.",
     "I've joined a {b} league as well, Tuesday nights.",
     [("five-a-side", "netball"), ("tennis", "softball"), ("cricket", "volleyball")]),
    ("Our daughter {a} is in year two.",
     "Big news: our second baby, {b}, arrived last week!",
     [("Isla", "Rory"), ("Maya", "Theo"), ("Ava", "Jude")]),
    ("Our son {a} just started kindergarten.",
     "Our little girl {b} was born on Tuesday, so {a}'s a big brother now!",
     [("Mason", "Lily"), ("Ethan", "Nora"), ("Caleb", "Ruby")]),
    ("I'm a member of {a}.",
     "Just joined {b} too, so that's two clubs I'm in now.",
     [("the chess club at the library", "the local choir"),
      ("a walking group", "a board game club"), ("the rowing club", "a book club")]),
    ("I've got a brother, {a}.",
     "I should've mentioned, I also have a sister, {b}. She lives in Canada.",
     [("Liam", "Orla"), ("Ravi", "Anjali"), ("Marco", "Giulia")]),
    ("I've got a {a} credit card.",
     "Opened a {b} card as well for travel, but I'm keeping the {a} one.",
     [("Capital One Quicksilver", "Chase Sapphire"), ("John Lewis", "Virgin Atlantic"),
      ("Discover", "Amex Gold")]),
    ("I have a savings account with {a}.",
     "I opened a second savings account with {b} for the better rate.",
     [("Nationwide", "Chip"), ("Marcus", "Trading 212"), ("Ally", "Wealthfront")]),
    ("I run a blog at {a}.",
     "Launched a second site this week, {b}, just for my photography.",
     [("slowkitchen.blog", "grainandlight.com"),
      ("thewobblypedal.com", "frames-per-second.net"),
      ("quietcode.dev", "tidepoolphotos.org")]),
    ("I've got a {a} on my desk at work.",
     "Bought a {b} to sit next to it, my desk's turning into a jungle.",
     [("monstera", "snake plant"), ("pothos", "little cactus"),
      ("peace lily", "string of pearls")]),
    ("One of my closest friends is {a}.",
     "Another close friend of mine is {b}; we met at uni.",
     [("Hollie", "Jamal"), ("Rowan", "Beth"), ("Nico", "Adaeze")]),
    ("I've got a degree in {a}.",
     "I've just finished a part-time master's in {b}, on top of the {a} degree.",
     [("history", "data science"), ("biology", "public health"), ("English", "law")]),
    ("I'm a certified {a}.",
     "Passed my {b} exam too, so that's another certification under my belt.",
     [("scuba diver", "first aid instructor"),
      ("AWS solutions architect", "Kubernetes administrator"),
      ("personal trainer", "nutrition coach")]),
    ("I volunteer with {a}.",
     "I've started volunteering at {b} as well, every other Saturday.",
     [("the Samaritans", "the animal shelter"), ("parkrun", "the community garden"),
      ("Habitat for Humanity", "the library's reading programme")]),
    ("I listen to {a} most days.",
     "Added {b} to my podcast rotation too.",
     [("The Rest Is Politics", "Hard Fork"), ("Radiolab", "Planet Money"),
      ("No Such Thing As A Fish", "Freakonomics Radio")]),
    ("I subscribe to {a}.",
     "I'm also subscribed to {b} now, they had a deal on.",
     [("The Economist", "The Atlantic"), ("the New York Times", "The Guardian"),
      ("Private Eye", "New Scientist")]),
    ("I've been to {a}, loved it.",
     "Just got back from {b}, another country ticked off!",
     [("Japan", "Peru"), ("Morocco", "Vietnam"), ("Iceland", "Portugal")]),
    ("I collect {a}.",
     "I've started collecting {b} too, not just {a}.",
     [("vinyl", "vintage cameras"), ("stamps", "old maps"), ("Lego sets", "fountain pens")]),
    ("I support {a}.",
     "I've got a soft spot for {b} as well. Second team, you could say.",
     [("Arsenal", "Brentford"), ("the Red Sox", "the Cubs"), ("Celtic", "St Pauli")]),
    ("I do a {a} class on Monday nights.",
     "Signed up for a {b} class on Thursdays as well.",
     [("spin", "life drawing"), ("salsa", "pilates"), ("boxing", "Italian")]),
    ("Our first grandchild, {a}, turned one last month.",
     "We've got another grandchild! {b} was born on Sunday.",
     [("Poppy", "Arlo"), ("Eli", "Harper"), ("Zara", "Finn")]),
    ("On the side I do some {a}.",
     "I've picked up some {b} work too, in addition to the {a}.",
     [("freelance copywriting", "tutoring"), ("wedding photography", "dog sitting"),
      ("web design", "bookkeeping")]),
    ("I've got one tattoo, a {a} on my shoulder.",
     "Got a second tattoo yesterday, a little {b} on my wrist.",
     [("swallow", "compass"), ("rose", "wave"), ("fern", "crescent moon")]),
    ("I'm on the board of {a}.",
     "I've also been elected to the board of {b}, which is a lot of meetings.",
     [("the school PTA", "the residents' association"),
      ("a small housing charity", "the tennis club"),
      ("the local food co-op", "the credit union")]),
]

# ---------------------------------------------------------------------------
# unrelated_same_subject: (first template, later template, [(a, b)])
# ---------------------------------------------------------------------------
UNRELATED = [
    ("My dentist is {a}.",
     "My next dental check-up is on {b}.",
     [("Dr. Okafor", "14 March"), ("Dr. Reyes", "the 3rd of June"),
      ("Dr. Lamb", "September 9th")]),
    ("I bank with {a}.",
     "Our mortgage is with {b}.",
     [("Monzo", "Halifax"), ("Chase", "Rocket Mortgage"), ("Starling", "Nationwide")]),
    ("I'm a member at {a}.",
     "My personal trainer at the gym is called {b}.",
     [("PureGym", "Dani"), ("Equinox", "Troy"), ("the leisure centre", "Kasia")]),
    ("My alarm goes off at {a}.",
     "I usually get into the office around {b}.",
     [("6:15", "8:30"), ("7am", "9:15"), ("5:45", "7:50")]),
    ("Rent's {a} a month.",
     "Our council tax is {b} a month on top of that.",
     [("£1,200", "£160"), ("£950", "£132"), ("£1,450", "£185")]),
    ("I use {a} as my browser.",
     "My default search engine is {b}.",
     [("Firefox", "DuckDuckGo"), ("Chrome", "Kagi"), ("Safari", "Ecosia")]),
    ("My phone contract's with {a}.",
     "My phone's a {b}, by the way.",
     [("EE", "Pixel 7"), ("Verizon", "iPhone 14"), ("Vodafone", "Galaxy A54")]),
    ("I listen to music on {a}.",
     "For audiobooks I use {b}.",
     [("Spotify", "Libby"), ("Apple Music", "Audible"), ("Tidal", "BorrowBox")]),
    ("All my notes are in {a}.",
     "My to-do list lives in {b}.",
     [("Obsidian", "Todoist"), ("Notion", "Things"), ("Apple Notes", "TickTick")]),
    ("Running club meets on {a}.",
     "My parkrun PB is {b}, finally!",
     [("Thursdays", "24:10"), ("Tuesday evenings", "22:47"), ("Wednesdays", "27:05")]),
    ("My physio's {a}.",
     "My knee op is scheduled for {b}.",
     [("Jonas", "the 12th of May"), ("Siobhan", "early August"), ("Rafael", "October 2nd")]),
    ("Our vet is {a}.",
     "The dog's groomer is {b}, she's a miracle worker.",
     [("Oakfield Vets", "Pampered Paws"), ("Banfield", "Suds & Scissors"),
      ("Medivet", "Karen at Scruffs")]),
    ("I'm usually in bed by {a}.",
     "On weekends I'm normally up by {b}.",
     [("11pm", "8"), ("10:30", "7:30"), ("midnight", "9")]),
    ("Our broadband's with {a}.",
     "We're getting about {b} on the broadband, which is plenty.",
     [("BT", "70Mbps"), ("Virgin Media", "500 meg"), ("Xfinity", "300 Mbps")]),
    ("We do the weekly shop at {a}.",
     "We get a veg box delivered every Friday from {b}.",
     [("Tesco", "Riverford"), ("Aldi", "Abel & Cole"), ("Kroger", "Misfits Market")]),
    ("Our weekly team sync is on {a}.",
     "My one-to-ones with my lead are on {b}.",
     [("Mondays at 10", "Thursday afternoons"), ("Tuesdays", "alternate Fridays"),
      ("Wednesday mornings", "Mondays at 4")]),
    ("I get to work by {a}.",
     "My commute's about {b} door to door.",
     [("train", "40 minutes"), ("bike", "25 minutes"), ("bus", "an hour")]),
    ("I'm on {a} a year.",
     "My bonus this year was {b}.",
     [("£48,000", "£3,000"), ("$92k", "$7,500"), ("€60,000", "€4,200")]),
    ("My accountant is {a}.",
     "My financial adviser is {b}; she handles the pension side of things.",
     [("Hartley & Co", "Imogen Shaw"), ("Jenny Cho", "Fiona Black"),
      ("TaxScouts", "Ruth Adeyemi")]),
    ("Our cleaner, {a}, comes on Wednesdays.",
     "The window cleaner comes round {b}.",
     [("Magda", "every six weeks"), ("Teresa", "once a month"),
      ("Sunita", "every other Tuesday")]),
    ("I'm on the {a} for my phone.",
     "My tablet is an old {b}.",
     [("iPhone 15", "iPad Air"), ("Pixel 8", "Galaxy Tab S7"), ("Galaxy S23", "Kindle Fire")]),
    ("I have piano lessons with {a}.",
     "I'm working on {b} for my grade five exam.",
     [("Mrs. Fielding", "a Chopin nocturne"), ("Anton", "the Moonlight Sonata"),
      ("Mr. Park", "Clair de Lune")]),
    ("I fly {a} whenever I can.",
     "My next trip is to {b} in October.",
     [("BA", "Lisbon"), ("Delta", "Denver"), ("KLM", "Nairobi")]),
    ("My usual coffee is {a}.",
     "I grab my coffee at {b} most mornings, it's on the way to work.",
     [("a flat white", "Grindsmith"), ("an oat latte", "the kiosk by the station"),
      ("a cortado", "Blue Bottle")]),
    ("I write code in {a}.",
     "My terminal is {b}, with a pretty heavy tmux setup.",
     [("Neovim", "kitty"), ("VS Code", "iTerm2"), ("Zed", "WezTerm")]),
    ("My side projects are on {a}.",
     "My personal site is hosted on {b}.",
     [("GitHub", "Netlify"), ("GitLab", "Cloudflare Pages"),
      ("Codeberg", "a Raspberry Pi in the cupboard")]),
    ("My allotment is plot {a}.",
     "This year I'm growing mostly {b} on it.",
     [("14", "squash and beans"), ("3B", "potatoes"), ("52", "garlic and onions")]),
]

# ---------------------------------------------------------------------------
# old_value_mentioned_kept: (first template, later template, [(a, b)])
# ---------------------------------------------------------------------------
KEPT = [
    ("My dentist is {a}.",
     "{a} did a really good job on my filling yesterday, barely felt a thing.",
     [("Dr. Okafor", ""), ("Dr. Lindqvist", ""), ("Dr. Patel", "")]),
    ("I bank with {a}.",
     "The {a} app was down all morning, so annoying.",
     [("Monzo", ""), ("Barclays", ""), ("Chase", "")]),
    ("Our broadband's with {a}.",
     "Rang {a} again about the speeds, they're sending an engineer on Friday.",
     [("BT", ""), ("Virgin Media", ""), ("Xfinity", "")]),
    ("I keep all my notes in {a}.",
     "Spent the weekend moving my old Word docs into {a}.",
     [("Obsidian", ""), ("Notion", ""), ("Evernote", "")]),
    ("All my passwords are in {a}.",
     "I've added my partner to our {a} family plan so we can share logins.",
     [("1Password", ""), ("Bitwarden", ""), ("Dashlane", "")]),
    ("I'm a member at {a}.",
     "{a} has added a sauna, so I'm going even more now.",
     [("David Lloyd", ""), ("Equinox", ""), ("the Y", "")]),
    ("My alarm goes off at {a} on weekdays.",
     "Even on holiday I woke up at {a} without an alarm, ha.",
     [("6:15", ""), ("6:45", ""), ("7am", "")]),
    ("I listen to all my music on {a}.",
     "Made a new running playlist on {a} last night, it's 90 minutes of bangers.",
     [("Spotify", ""), ("Apple Music", ""), ("Tidal", "")]),
    ("My physio is {a}.",
     "{a} gave me some new exercises for my knee, they're brutal.",
     [("Jonas", ""), ("Siobhan", ""), ("Rafael", "")]),
    ("I get my hair cut at {a}.",
     "{a} is shut for a refurb until the 20th, so I'll just wait it out.",
     [("Toni & Guy", ""), ("Salon Verde", ""), ("Fade Street Barbers", "")]),
    ("We do our big weekly shop at {a}.",
     "Grabbed a few bits from {b} on the way home, but the big shop's still at {a}.",
     [("Tesco", "the corner shop"), ("Aldi", "M&S"), ("Kroger", "Trader Joe's")]),
    ("I write code in {a}.",
     "Moved my {a} config from my laptop into a dotfiles repo so it's the same everywhere.",
     [("Neovim", ""), ("VS Code", ""), ("Emacs", "")]),
    ("My side projects are on {a}.",
     "I transferred my repos on {a} from my personal account to a new organisation.",
     [("GitHub", ""), ("GitLab", ""), ("Codeberg", "")]),
    ("I've been seeing a therapist, {a}, for about a year.",
     "{a} moved our sessions from Mondays to Thursdays.",
     [("Daniel", ""), ("Ruth", ""), ("Dr. Kaur", "")]),
    ("My accountant is {a}.",
     "Now that the tax return's in, {a} is sorting out my VAT registration as well.",
     [("Hartley & Co", ""), ("Jenny Cho", ""), ("Bluestone Tax", "")]),
    ("The card I use for almost everything is my {a}.",
     "Put the flights on the {a} for the points.",
     [("Amex Gold", ""), ("Barclaycard", ""), ("Chase Sapphire", "")]),
    ("I fly {a} whenever I can.",
     "{a} upgraded me to business on the way back, absolutely brilliant.",
     [("BA", ""), ("Delta", ""), ("Qantas", "")]),
    ("Our vet is {a}.",
     "Took the dog to {a} for her jabs this morning, all fine.",
     [("Oakfield Vets", ""), ("Medivet", ""), ("Banfield", "")]),
    ("I use {a} as my browser.",
     "Now that I've got the hang of {a}, I've installed a load of extensions.",
     [("Firefox", ""), ("Arc", ""), ("Brave", "")]),
    ("My Spanish tutor is {a}.",
     "{a} reckons I'll be ready for the B2 exam by summer.",
     [("Lucía", ""), ("Javier", ""), ("Pilar", "")]),
    ("The podcast I always have on during my commute is {a}.",
     "There was a great episode of {a} this morning, I nearly missed my stop.",
     [("The Rest Is History", ""), ("Hard Fork", ""), ("99% Invisible", "")]),
    ("Running club's on {a} nights.",
     "Skipped club this {a} because of the rain, gutted.",
     [("Thursday", ""), ("Tuesday", ""), ("Wednesday", "")]),
    ("Rent's {a} a month.",
     "Since the rent's {a} a month, I'm trying to put the same again into savings.",
     [("£1,200", ""), ("$2,100", ""), ("€950", "")]),
    ("Our gas and electric's with {a}.",
     "{a} sent us a smart meter, the engineer's fitting it next week.",
     [("Octopus Energy", ""), ("British Gas", ""), ("EDF", "")]),
    ("My to-dos all go in {a}.",
     "Dumped all the wedding planning stuff into {a} last night, it's a monster of a list.",
     [("Todoist", ""), ("Things", ""), ("TickTick", "")]),
    ("We go to {a} on Sundays.",
     "I've been asked to join the choir at {a}, which is exciting.",
     [("St Mary's", ""), ("Grace Community Church", ""), ("St Luke's", "")]),
    ("Our nanny, {a}, does Monday to Thursday.",
     "{a}'s on holiday next week so my mum's covering for her.",
     [("Beatriz", ""), ("Mia", ""), ("Joanna", "")]),
    ("The only streaming service I pay for is {a}.",
     "Binged the whole new season on {a} on Saturday, no regrets.",
     [("Netflix", ""), ("Disney+", ""), ("Max", "")]),
    ("I usually get the {a} to work.",
     "The {a} was late again this morning, I missed the start of standup.",
     [("train", ""), ("bus", ""), ("tube", "")]),
    ("My allotment is plot {a} at Ferry Lane.",
     "Put a new shed up on plot {a} at the weekend, finally.",
     [("14", ""), ("3B", ""), ("52", "")]),
    ("I'm on the {a} at the moment, phone-wise.",
     "Got a new case for the {a}, the old one was falling apart.",
     [("Pixel 8", ""), ("iPhone 15", ""), ("Galaxy S23", "")]),
    ("My commute is about {a} each way.",
     "I've been using the {a} on the train to get through my reading list.",
     [("45 minutes", ""), ("40 minutes", ""), ("an hour", "")]),
]

CATEGORIES = [
    ("contradiction_unregistered", "co", CONTRADICTION, True),
    ("multi_valued_addition", "mu", MULTI, False),
    ("unrelated_same_subject", "un", UNRELATED, False),
    ("old_value_mentioned_kept", "me", KEPT, False),
]

_PRONOUN_START = re.compile(r"^I(\s|')")


def _fill(template: str, values: tuple, contradiction: bool) -> str:
    if contradiction:
        return template.format(old=values[0], new=values[1])
    return template.format(a=values[0], b=values[1] if len(values) > 1 else "")


def _restate(first_template: str, first: str) -> str:
    # The first statement said again, a little later.
    if first_template.startswith("{") or _PRONOUN_START.match(first):
        body = first
    else:
        body = first[0].lower() + first[1:]
    return "Like I said before, " + body


def _ts(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _times(rng: random.Random, n: int) -> list[dt.datetime]:
    start = dt.datetime(2023, 1, 2, tzinfo=dt.timezone.utc)
    day = rng.randrange(0, 540)
    t0 = start + dt.timedelta(days=day, hours=rng.randrange(7, 22),
                              minutes=rng.choice([0, 5, 15, 20, 30, 40, 45, 50]))
    gap = dt.timedelta(days=rng.randrange(18, 260), hours=rng.randrange(-5, 6),
                       minutes=rng.choice([0, 10, 15, 25, 30, 45]))
    t_last = t0 + gap
    if n == 2:
        return [t0, t_last]
    mid = t0 + dt.timedelta(seconds=int(gap.total_seconds() * rng.uniform(0.25, 0.75)))
    mid = mid.replace(second=0)
    return [t0, mid, t_last]


def _pick_speaker(rng: random.Random, contents: list[str]) -> str:
    pool = [s for s in SPEAKERS
            if not any(re.search(r"\b%s\b" % re.escape(s), c) for c in contents)]
    return rng.choice(pool)


def build() -> tuple[list[dict], dict]:
    rng = random.Random(SEED)
    records: list[dict] = []
    stats: dict = {}
    for category, short, pairs, expect in CATEGORIES:
        contradiction = expect
        cases = []
        for first_t, later_t, value_list in pairs:
            chosen = rng.sample(value_list, CASES_PER_PAIR)
            for values in chosen:
                first = _fill(first_t, values, contradiction)
                later = _fill(later_t, values, contradiction)
                contents = [first, later]
                middle = None
                if rng.random() < MIDDLE_TURN_RATE:
                    if rng.random() < 0.4:
                        middle = _restate(first_t, first)
                    else:
                        middle = rng.choice(SMALL_TALK)
                    contents.insert(1, middle)
                speaker = _pick_speaker(rng, contents)
                times = _times(rng, len(contents))
                turns = [{"speaker": speaker, "content": c, "reference_time": _ts(t)}
                         for c, t in zip(contents, times)]
                stale = values[0] if contradiction else None
                if stale is not None and stale not in first:
                    raise AssertionError(f"stale {stale!r} not in {first!r}")
                cases.append({
                    "category": category,
                    "speaker": speaker,
                    "turns": turns,
                    "subject": speaker,
                    "attribute": None,
                    "stale": stale,
                    "current": [],
                    "expect_supersession": expect,
                })
        rng.shuffle(cases)
        for i, case in enumerate(cases, 1):
            records.append({"id": f"d2-{short}-{i:03d}", **case})
        stats[category] = {
            "cases": len(cases),
            "phrasing_pairs": len({(f, l) for f, l, _ in pairs}),
        }
    n_mid = sum(1 for r in records if len(r["turns"]) == 3)
    if n_mid * 4 > len(records):
        raise AssertionError(f"too many three-turn cases: {n_mid}/{len(records)}")
    stats["three_turn_cases"] = n_mid
    stats["total"] = len(records)
    return records, stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if the output file would differ")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    records, stats = build()
    if args.check:
        return write_or_check(args.out, records, check=True)
    write_or_check(args.out, records, check=False)
    print(f"wrote {len(records)} cases to {args.out}")
    print(json.dumps(stats, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
