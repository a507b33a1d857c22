"""Build eval/data/supersession_heldout.jsonl: held-out end-to-end supersession cases.

Issue 19, item 3 asks for supersession cases that the people who write the
engine's rules have not seen. Every sentence frame here was written for this
file from scratch, by a writer who did not read the engine (``midas_graph/``),
the extraction schema, the development cases
(``eval/data/supersession_cases.jsonl``, ``eval/data/revision_cases.jsonl``)
or their generator. Keep it that way: do not tune rules or thresholds on
this file, and do not copy its frames into the development cases.

Each case is a short conversation (two turns, sometimes three) said by one
person in the first person, months apart:

| category | the later turn ... | expect_supersession |
|---|---|---|
| contradiction_unregistered | replaces a personal attribute that has no dedicated rule (dentist, task tracker, commute length, standup time, rent, ...); about half name the old value ("moved from X to Y"), half only the new one with a change cue ("my new vet is ...") | true |
| multi_valued_addition | adds a second value of something people have several of (another podcast, a savings account kept alongside, a tutor for the other child) | false |
| unrelated_same_subject | states another attribute of the same person, often in close wording ("My dentist is ..." / "My vet is ...") | false |
| old_value_mentioned_kept | mentions the old value without replacing it ("Dr. Lee recommended a new toothpaste", "moved some savings to Monzo") | false |

For contradictions ``stale`` is the old value exactly as written in the first
turn (a substring of it); otherwise ``stale`` is null. ``attribute`` is null
and ``current`` is empty throughout: the engine's own attribute names are not
known to the writer.

    python eval/make_supersession_heldout.py          # rewrites the JSONL (deterministic)
    python eval/make_supersession_heldout.py --check  # exits 1 if the file differs
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from jsonl_file import write_or_check  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "supersession_heldout.jsonl"
SEED = 1903
PER_PAIR = 3          # cases per phrasing pair
THIRD_TURN_P = 0.18   # share of cases with a third turn (at most a quarter)

SPEAKERS = ["Kofi", "Aisha", "Mateo", "Priyanka", "Liam", "Sofia", "Hiroshi", "Fatima",
            "Oliver", "Mei", "Zanele", "Ingrid", "Rahul", "Maya", "Tomasz", "Amara",
            "Diego", "Yuki", "Seán", "Leila", "Nikolai", "Grace", "Omar", "Elif",
            "Hamish", "Chiara", "Dev", "Bongani", "Astrid", "Marcus"]

# ------------------------------------------------------------------ values
DENTISTS = ["Dr. Fischer", "Dr. Okafor", "Dr. Lindqvist", "Dr. Mehta", "Dr. Haddad",
            "Dr. Brennan", "Dr. Sato", "Dr. Novak"]
GP_PRACTICES = ["Church Street Surgery", "Elm Tree Medical Centre", "Parkside Health",
                "Brookfield Practice", "Westgate Surgery", "Canal Side Medical"]
GP_DOCTORS = ["Dr. Whitaker", "Dr. Adeyemi", "Dr. Castellanos", "Dr. Moreau",
              "Dr. Kowalczyk", "Dr. Iqbal"]
VETS = ["Greenway Vets", "Paws & Claws", "Riverside Veterinary", "Oakfield Animal Clinic",
        "Hillcrest Vets", "Medivet Kentish Town"]
VET_PEOPLE = ["Dr. Park", "Dr. Svensson", "Dr. Mbeki", "Dr. Russo", "Dr. Quinn", "Dr. Tanaka"]
HAIR = ["Salon Lumière", "Cut Above", "Hair by Nadia", "Studio Nine", "Toni & Guy",
        "Blush & Blow"]
BARBERS = ["Tony's", "Sharp Lines", "Big Al's", "The Barber Room", "Fade Street", "Ahmet's"]
NAILS = ["Polished", "Nail Bar 21", "Luxe Nails", "The Nail Room", "Tips & Toes"]
GYMS = ["FitLife", "PureGym", "Anytime Fitness", "The Iron Works", "Gymbox", "Core Club",
        "Third Space"]
BANKS = ["Monzo", "Barclays", "HSBC", "Starling", "Chase", "Lloyds", "Nationwide", "Revolut"]
PENSIONS = ["Aviva", "Nest", "Vanguard", "Scottish Widows", "Royal London", "Legal & General"]
CARDS = ["Amex", "Barclaycard", "Capital One", "Virgin Money", "Curve", "Halifax"]
CARRIERS = ["Vodafone", "EE", "O2", "Three", "giffgaff", "Lebara", "T-Mobile"]
ISPS = ["Virgin Media", "BT", "Sky Broadband", "Hyperoptic", "Community Fibre", "TalkTalk"]
MUSIC = ["Spotify", "Apple Music", "YouTube Music", "Tidal", "Deezer", "Amazon Music"]
STREAMING = ["Netflix", "Disney+", "Prime Video", "Apple TV+", "NOW", "Paramount+"]
NOTES = ["Evernote", "Notion", "Obsidian", "OneNote", "Bear", "Apple Notes", "Logseq"]
LOCAL_NOTES = ["Obsidian", "Logseq", "Joplin", "Zettlr", "Foam"]
TASKS = ["Trello", "Jira", "Asana", "Linear", "ClickUp", "Monday.com"]
TODO = ["Todoist", "Things", "TickTick", "Microsoft To Do", "OmniFocus"]
CI = ["Jenkins", "CircleCI", "GitHub Actions", "GitLab CI", "Travis CI", "Buildkite",
      "TeamCity"]
CLOUD = ["AWS", "Azure", "Google Cloud", "DigitalOcean", "Hetzner", "Linode"]
EDITORS = ["VS Code", "Vim", "Emacs", "PyCharm", "Sublime Text", "Neovim", "Zed"]
BROWSERS = ["Chrome", "Firefox", "Safari", "Brave", "Arc", "Edge", "Vivaldi"]
PWM = ["LastPass", "1Password", "Bitwarden", "Dashlane", "KeePassXC", "Proton Pass"]
COACHES = ["Marta", "Coach Daniels", "Femi", "Rob Kessler", "Ines", "Big Dave"]
TUTORS = ["Mr. Abbott", "Ms. Rahman", "Mrs. Okonkwo", "Mr. Delgado", "Ms. Petrova", "Mr. Finch"]
THERAPISTS = ["Dr. Klein", "Sarah Whitfield", "Dr. Ansari", "Helen Marsh", "Dr. Obi",
              "Ruth Feldman"]
TRAINERS = ["Jamal", "Kasia", "Duncan", "Alejandra", "Siobhan"]
PHYSIOS = ["Dr. Ansah", "Kim at Move Well", "Dr. Hollis", "Dr. Varga", "Priti at Spine Works",
           "Dr. Lindgren"]
LANDLORDS = ["Mr. Osei", "Mrs. Duarte", "Greenfield Lettings", "Foxtons", "Mr. Halloran",
             "Harbour Homes"]
NEIGHBOURS = ["Mr. Petrakis", "Mrs. Boateng", "Greta", "Mr. Ferreira", "Mrs. Lowry"]
BABYSITTERS = ["Chloe", "Amira", "Jess", "Tobias", "Niamh", "Lucia"]
CLEANERS = ["Rosa", "Magda", "Teresa", "Dorota", "Gloria", "Svetlana"]
ACCOUNTANTS = ["Patel & Co", "Henderson Tax", "Bright Ledger", "Mr. Gallagher", "Numbers Ltd"]
SOLICITORS = ["Fraser Legal", "Knight & Webb", "Ms. Adebayo", "Howell Solicitors",
              "Carter Lane Law"]
DOGWALKERS = ["Ben", "Happy Paws Walkers", "Callum", "Ruff Guides", "Mags", "Walkies Club"]
GROOMERS = ["Pampered Pooch", "Scruffs", "The Dog House", "Fluff & Fold", "Wag Wash"]
GROCERY = ["Tesco", "Aldi", "Lidl", "Sainsbury's", "Waitrose", "Trader Joe's", "Co-op",
           "Morrisons"]
PHARMACY = ["Boots", "Walgreens", "CVS", "Lloydspharmacy", "Well Pharmacy", "Superdrug"]
AIRLINES = ["KLM", "British Airways", "Lufthansa", "easyJet", "Delta", "Emirates", "Ryanair"]
HOTELS = ["Premier Inn", "Hilton", "Travelodge", "Holiday Inn", "Marriott", "Novotel"]
PHONES = ["iPhone 12", "Pixel 7", "Galaxy S21", "iPhone 15", "OnePlus 9", "Pixel 8a"]
LAPTOPS = ["ThinkPad X1", "MacBook Air", "Dell XPS 13", "Framework 13", "MacBook Pro",
           "Surface Laptop"]
PODHOSTS = ["Libsyn", "Buzzsprout", "Anchor", "Transistor", "Podbean", "Captivate"]
CHURCHES = ["St. Mary's", "Grace Community Church", "St. Aidan's", "Holy Trinity",
            "City Vineyard", "St. Columba's"]
CHOIRS = ["the Riverside Choir", "the Harbour Singers", "Bellfield Community Choir",
          "the Gospel Collective", "Cantate", "the Northside Chorus"]
QUIZ = ["the Quizzly Bears", "Les Quizerables", "Quiz Team Aguilera", "the Know-It-Owls",
        "Universally Challenged", "Agatha Quiztie"]
ALLOTMENTS = ["plot 12", "plot 31", "plot 4", "plot 27", "plot 9B", "plot 18"]
PARKING = ["B14", "C3", "space 22", "bay 17 on level 2", "A9", "bay 41"]
LOCKERS = ["27", "112", "64", "203", "15", "88"]
DESKS = ["desk 14", "desk 42", "desk 7", "desk B12", "desk 31", "desk 58"]
FLOORS = ["3rd floor", "7th floor", "ground floor", "12th floor", "2nd floor", "5th floor"]
COFFEE = ["flat white", "cortado", "cappuccino", "long black", "mocha", "cold brew",
          "double espresso"]
AFTERNOON_DRINKS = ["green tea", "peppermint tea", "chai latte", "hot chocolate", "rooibos"]
MODES = ["take the bus", "drive", "cycle", "take the train", "walk", "get the tube",
         "take the ferry"]
BOOKCLUB = ["Thursdays", "Tuesdays", "the first Monday of the month", "Wednesday evenings",
            "Sunday afternoons", "the last Friday of the month"]
WEEKDAYS = ["Mondays", "Tuesdays", "Wednesday nights", "Fridays", "Sunday afternoons"]
STANDUP_T = ["9:30", "9:00", "10:15", "8:45", "9:45", "10:00"]
EVENING_T = ["18:00", "6:30pm", "19:15", "7pm", "17:45", "8pm"]
COMMUTE_S = ["40 minutes", "25 minutes", "50 minutes", "35 minutes", "45 minutes", "an hour"]
COMMUTE_MINS = ["40 minutes", "25 minutes", "50 minutes", "35 minutes", "45 minutes"]
LUNCH = ["30 minutes", "an hour", "45 minutes", "20 minutes"]
RENT_S = ["£900", "£1,050", "£1,200", "$1,800", "€750", "£650"]
CTAX = ["£140", "£120", "£165", "£98", "£180"]
WAKE_S = ["6:45", "7am", "half six", "7:15", "5:30", "8"]
BED_S = ["11pm", "midnight", "10:30", "half ten", "11:15"]
RUN_S = ["5k", "10k", "3 miles", "6 miles", "8k"]
SWIM = ["40 lengths", "a mile", "1,500 metres", "30 lengths", "a kilometre"]
TEAM_S = ["6 people", "11 people", "8 of us", "5 people", "14 people"]
DEPT = ["40 people", "120 people", "60", "200 people", "35 people"]
PODCASTS = ["The Rest Is History", "Radiolab", "99% Invisible", "Hard Fork", "Off Menu",
            "No Such Thing As A Fish", "Reply All"]
CLUBS = ["chess", "running", "book", "hiking", "photography", "cycling", "board game"]
HOBBIES = ["pottery", "climbing", "knitting", "woodworking", "watercolours", "calligraphy",
           "embroidery"]
INSTRUMENTS = ["the piano", "the guitar", "the cello", "the ukulele", "the drums",
               "the violin", "the saxophone"]
DOGS = ["Biscuit", "Pepper", "Murphy", "Luna", "Bruno", "Mochi"]
CATS = ["Tofu", "Olive", "Mittens", "Pickle", "Juniper", "Smudge"]
NEWSLETTERS = ["Money Stuff", "Morning Brew", "Platformer", "The Browser", "Garbage Day",
               "Stratechery"]
VOLUNTEER = ["the food bank", "the animal shelter", "the hospice shop", "the community garden",
             "the library homework club", "the repair café"]
SPORTS = ["five-a-side", "badminton", "netball", "squash", "tennis", "volleyball", "padel"]
COURSES = ["life drawing", "bookkeeping", "carpentry", "creative writing", "photography",
           "first aid"]
KIDS = ["swimming", "football", "ballet", "Scouts", "karate", "drama club"]

# (old, new) pairs where the direction matters or the values are numbers
COMMUTE = [("40 minutes", "25 minutes"), ("an hour", "35 minutes"), ("20 minutes", "50 minutes"),
           ("45 minutes", "an hour and a half"), ("15 minutes", "half an hour"),
           ("30 minutes", "an hour")]
STANDUP = [("9:30", "10:15"), ("9:00", "9:45"), ("10:00", "9:15"), ("8:45", "9:30"),
           ("11:00", "10:30"), ("9:15", "11:45")]
RENT = [("£900", "£1,050"), ("£1,200", "£1,380"), ("$1,800", "$2,050"), ("€750", "€820"),
        ("£650", "£725")]
SALARY = [("52k", "58k"), ("£38,000", "£42,500"), ("$85k", "$97k"), ("€46,000", "€51,000"),
          ("41k", "47k")]
BUDGET = [("£80", "£65"), ("£120", "£100"), ("$150", "$110"), ("€90", "€75"), ("£60", "£50")]
TEAM = [("6 people", "11 people"), ("8 people", "5 people"), ("12 people", "20 people"),
        ("3 people", "7 people"), ("10 people", "14 people")]
RUN = [("5k", "8k"), ("3 miles", "5 miles"), ("10k", "15k"), ("4k", "7k"), ("6 miles", "10 miles")]
BEDTIME = [("11pm", "10:30pm"), ("midnight", "half ten"), ("10:30", "11:15"),
           ("11:30", "10pm"), ("half eleven", "midnight")]
WAKE = [("6:45", "5:15"), ("7am", "6am"), ("8", "6:30"), ("half six", "quarter to five"),
        ("7:15", "5:45")]

# ------------------------------------------------------------- templates
# contradiction_unregistered: (first, later, pool); {o} old value, {n} new value
CONTRADICTION = [
    # the later turn names the old value
    ("My dentist is {o}.",
     "I've moved from {o} to {n} for the dentist, the new practice is closer to work.", DENTISTS),
    ("At work we track everything in {o}.", "{o} is gone, it's all {n} now.", TASKS),
    ("my commute's about {o} each way",
     "not {o} any more, more like {n} since they opened the new line", COMMUTE),
    ("I bank with {o}.", "Finally dropped {o} for {n}, their app is so much better.", BANKS),
    ("I keep all my notes in {o}.",
     "swapped {o} out for {n} last weekend, took forever to copy everything over", NOTES),
    ("I go to {o} most evenings after work.", "After three years at {o} I've joined {n}.", GYMS),
    ("Our vet is {o}, they're really good with the cat.",
     "We left {o} - the cat's registered with {n} now.", VETS),
    ("Standup's at {o} every morning.",
     "they moved standup from {o} to {n}, which honestly helps", STANDUP),
    ("Rent is {o} a month for our place.",
     "Landlord put the rent up from {o} to {n} a month. Ouch.", RENT),
    ("I write all my code in {o}.", "Ditched {o}. {n} all the way now.", EDITORS),
    ("My phone contract is with {o}.",
     "I ported my number from {o} to {n} last week, way better signal.", CARRIERS),
    ("We get our broadband from {o}.",
     "Cancelled {o} and went with {n} for the internet, it's half the price.", ISPS),
    ("I get my hair done at {o}.", "Not going to {o} any more — I go to {n} now.", HAIR),
    ("Our CI runs on {o}.",
     "We finally finished moving CI off {o}; everything builds on {n} now.", CI),
    ("I use {o} for all my passwords.", "after that breach I moved from {o} to {n}", PWM),
    ("my usual coffee order is a {o}", "I've gone off {o}s, it's a {n} for me these days", COFFEE),
    ("I'm usually up at {o} on weekdays.",
     "I used to get up at {o} but since the baby arrived it's more like {n}.", WAKE),
    ("I do my weekly shop at {o}.",
     "Gave up on {o} because of the queues, I shop at {n} now.", GROCERY),
    ("I see {o} for therapy every other week.",
     "I stopped seeing {o}. My therapist is {n} now and it's going well.", THERAPISTS),
    ("All our stuff is hosted on {o}.",
     "We moved everything off {o} onto {n} in March, the bill was getting silly.", CLOUD),
    ("{o} cuts my hair, been going for years.",
     "After 5 years with {o} I've switched to {n}, it's round the corner from me.", BARBERS),
    ("Our landlord is {o}.",
     "The flat got sold, so it's not {o} any more — our landlord is {n}.", LANDLORDS),
    ("I sit at {o} in the office.",
     "I'm no longer at {o}, they put me at {n} after the reshuffle.", DESKS),
    ("{o} is my browser of choice.", "uninstalled {o} and went with {n}, way less RAM", BROWSERS),
    ("I play pub quiz with {o} at the Red Lion.",
     "I've left {o} and joined {n} for quiz nights, better odds lol", QUIZ),
    ("Our grocery budget is {o} a week.",
     "we've cut the food budget from {o} to {n} a week, trying to save for a holiday", BUDGET),
    ("We use {o} for music in the house.",
     "Got rid of {o}, we're all on {n} now since my brother shares his family plan.", MUSIC),
    # only the new value, with a change cue
    ("My GP is at {o}.",
     "My new GP practice is {n}, it's so much easier to get an appointment.", GP_PRACTICES),
    ("{o} walks our dog on weekdays.", "We've got a new dog walker, {n} — started Monday.",
     DOGWALKERS),
    ("I listen to all my music on {o}.",
     "switched to {n} for music, the family plan was cheaper", MUSIC),
    ("I pick up my prescriptions from {o}.",
     "These days my prescriptions go to {n}, it's on my way home.", PHARMACY),
    ("I always fly {o} when I can.", "I'm with {n} now for flights, got gold status with them.",
     AIRLINES),
    ("I'm working on a {o} at the moment.", "Just got a {n}, so that's my main laptop now.",
     LAPTOPS),
    ("I've had my {o} for ages.", "Finally upgraded — I'm on the {n} now.", PHONES),
    ("My team is {o}.", "We're {n} on the team now after the hiring round.", TEAM),
    ("My desk is on the {o}.", "we've been moved to the {n} after the refurb", FLOORS),
    ("Book club is on {o}.", "Book club's {n} now because the café changed its hours.", BOOKCLUB),
    ("I run {o} most mornings.", "I've built up to {n} on my morning runs now.", RUN),
    ("I try to be in bed by {o}.", "I'm going to bed at {n} these days, I'm shattered.", BEDTIME),
    ("I'm on {o} a year.", "Got the raise!! I'm on {n} now.", SALARY),
    ("{o} tutors my son in maths.",
     "My son's got a new maths tutor, {n}, and he actually likes the lessons.", TUTORS),
    ("Our babysitter is {o}.", "{n} is babysitting for us now, they're brilliant with the twins.",
     BABYSITTERS),
    ("{o} comes to clean for us on Tuesdays.", "We've got {n} doing the cleaning now.", CLEANERS),
    ("{o} does my taxes.",
     "From now on {n} is doing my tax return, I'd had enough of late filings.", ACCOUNTANTS),
    ("We go to {o} on Sundays.",
     "We've started going to {n} on Sundays, the kids like the youth group.", CHURCHES),
    ("I {o} to work.", "These days I {n} to work, it's actually quicker.", MODES),
    ("My parking spot is {o}.", "I got reassigned, I park in {n} now.", PARKING),
    ("I've got locker {o} at the pool.", "they gave me a different locker, it's {n} now", LOCKERS),
    ("My allotment is {o}.", "The committee moved me to {n}, it gets way more sun.", ALLOTMENTS),
    ("Our podcast is hosted on {o}.", "We've moved the podcast hosting to {n}.", PODHOSTS),
    ("I sing with {o} on Wednesday nights.",
     "I've joined {n} instead, their rehearsal night suits me better.", CHOIRS),
    ("My running coach is {o}.", "Started working with a new running coach this month, {n}.",
     COACHES),
    ("Our solicitor is {o}.", "we've got {n} as our solicitor now, much quicker at replying",
     SOLICITORS),
    ("I'm registered with {o} at the dental practice on King Street.",
     "btw my dentist is {n} now", DENTISTS),
    ("Our vet is {o}.", "Started taking the dog to {n} — cheaper, and they do house calls.", VETS),
    ("I'm on {o} for my mobile.", "I'm with {n} now for my phone plan.", CARRIERS),
]

# multi_valued_addition: (first, later, pool_a, pool_b or None)
ADDITION = [
    ("I listen to {a} on my commute.", "I've started listening to {b} as well, it's brilliant.",
     PODCASTS, None),
    ("We've got {a} at home.", "We signed up for {b} too, mainly for the kids' shows.",
     STREAMING, None),
    ("{a} tutors my daughter in maths.", "My son's got a tutor too now, {b}, for his reading.",
     TUTORS, None),
    ("I'm in a {a} club.", "I joined a {b} club on top of that, Thursday nights.", CLUBS, None),
    ("My current account is with {a}.",
     "Opened a savings account with {b}, I'm keeping {a} for everyday spending.", BANKS, None),
    ("I've been doing {a} for a few years.",
     "Picked up {b} as well, something to do with my hands in the evenings.", HOBBIES, None),
    ("I play {a}.", "I'm also learning {b} now, my teacher says it's a natural next step.",
     INSTRUMENTS, None),
    ("We're on {a} at work.", "For my side project I'm using {b}; work stuff stays on {a}.",
     CLOUD, None),
    ("We have a dog called {a}.", "We adopted a cat too! Her name's {b}.", DOGS, CATS),
    ("I read {a} every morning with my coffee.", "I've also subscribed to {b}, it lands on Sundays.",
     NEWSLETTERS, None),
    ("I volunteer at {a} on Saturdays.", "I also help out at {b} on Wednesday evenings now.",
     VOLUNTEER, None),
    ("My credit card is with {a}.", "Got a second card with {b} for the travel points.",
     CARDS, None),
    ("I play {a} on Tuesdays.", "I've started playing {b} on Thursdays as well.", SPORTS, None),
    ("I do the big shop at {a}.", "I grab bits from {b} too since it's right by the station.",
     GROCERY, None),
    ("I use {a} for Python.",
     "For quick edits on servers I use {b}, still {a} for the big stuff though.", EDITORS, None),
    ("At work we use {a} for tickets.",
     "For my own to-dos I've started using {b}, work's still all in {a}.", TASKS, TODO),
    ("I sing in {a}.", "I joined {b} as well, it's a second choir just for the Christmas season.",
     CHOIRS, None),
    ("I'm taking an evening class in {a}.", "Signed up for another class, {b}, on Mondays.",
     COURSES, None),
    ("I see {a} for my knee.", "I'm also seeing {b} for my back now.", PHYSIOS, None),
    ("The kids do {a} on Saturdays.", "We've added {b} for the kids on Sundays.", KIDS, None),
    ("{a} babysits for us on Fridays.",
     "We found a second babysitter, {b}, for the weekends {a} can't do.", BABYSITTERS, None),
    ("I use {a} for personal browsing.", "at work it's {b}, but my personal browser is still {a}",
     BROWSERS, None),
    ("I bank with {a}.", "Me and my partner opened a joint account with {b} as well.",
     BANKS, None),
    ("My main gym is {a}.", "I got a membership at {b} too, just for the pool - still lift at {a}.",
     GYMS, None),
]

# unrelated_same_subject: (first, later, pool_a, pool_b)
UNRELATED = [
    ("My dentist is {a}.", "My vet is {b}.", DENTISTS, VET_PEOPLE),
    ("My commute is {a}.", "My lunch break is {b}.", COMMUTE_S, LUNCH),
    ("Standup is at {a}.", "Gym is at {b}.", STANDUP_T, EVENING_T),
    ("I bank with {a}.", "My pension's with {b}.", BANKS, PENSIONS),
    ("Our broadband is {a}.", "My mobile is on {b}.", ISPS, CARRIERS),
    ("I keep my notes in {a}.", "My to-do list lives in {b}.", NOTES, TODO),
    ("Our CI is {a}.", "We host everything on {b}.", CI, CLOUD),
    ("I use {a} as my browser.", "My password manager is {b}.", BROWSERS, PWM),
    ("My hairdresser is {a}.", "I get my nails done at {b}.", HAIR, NAILS),
    ("My GP is {a}.", "My physio is {b}.", GP_DOCTORS, PHYSIOS),
    ("My rent is {a} a month.", "council tax is another {b} a month on top", RENT_S, CTAX),
    ("Book club is on {a}.", "Choir practice is on {b}.", BOOKCLUB, WEEKDAYS),
    ("I sit at {a}.", "my locker at work is number {b}", DESKS, LOCKERS),
    ("I'm on the {a} at work.", "My parking space is {b}.", FLOORS, PARKING),
    ("I'm up at {a} on weekdays.", "lights out at {b} for me, most nights", WAKE_S, BED_S),
    ("I run {a} on Saturdays.", "I swim {b} on Wednesdays.", RUN_S, SWIM),
    ("My usual coffee is a {a}.", "In the afternoons I have a {b}.", COFFEE, AFTERNOON_DRINKS),
    ("I do my food shop at {a}.", "I get my prescriptions from {b}.", GROCERY, PHARMACY),
    ("I usually fly {a}.", "When I travel I tend to book a {b}.", AIRLINES, HOTELS),
    ("I'm using the {a} as my phone.", "My laptop is a {b}.", PHONES, LAPTOPS),
    ("{a} babysits for us on Fridays.", "{b} does our cleaning.", BABYSITTERS, CLEANERS),
    ("My accountant is {a}.", "Our solicitor is {b}.", ACCOUNTANTS, SOLICITORS),
    ("{a} walks the dog for us.", "The dog gets groomed at {b}.", DOGWALKERS, GROOMERS),
    ("My therapist is {a}.", "My personal trainer is {b}.", THERAPISTS, TRAINERS),
    ("There are {a} on my team.", "The whole department is about {b}.", TEAM_S, DEPT),
    ("Our landlord is {a}.", "The neighbour upstairs is {b}, lovely person.", LANDLORDS,
     NEIGHBOURS),
]

# old_value_mentioned_kept: (first, later, pool); only {a}
MENTIONED = [
    ("My dentist is {a}.", "{a} recommended a new toothpaste for my sensitive teeth.", DENTISTS),
    ("We use {a} for tickets at work.",
     "I moved all my old notes into {a} so everything's in one place.", TASKS),
    ("My gym is {a}.", "{a} is open late on Fridays now, which is handy.", GYMS),
    ("I bank with {a}.", "I moved some savings from my ISA to {a}.", BANKS),
    ("Our vet is {a}.", "Took the cat to {a} for her jabs yesterday — she was NOT impressed.", VETS),
    ("I get my hair cut at {a}.", "{a} has moved to a bigger place on the high street.", HAIR),
    ("Our landlord is {a}.", "{a} finally sent someone to fix the boiler.", LANDLORDS),
    ("My commute is about {a}.",
     "I use the {a} on the train to read, honestly it's the best part of my day.", COMMUTE_MINS),
    ("Standup is at {a}.", "was late to the {a} standup again, the trains were a mess",
     STANDUP_T),
    ("I code in {a}.", "Installed a new theme in {a}, way easier on the eyes now.", EDITORS),
    ("I use {a} as my password manager.",
     "I moved all my saved passwords from the browser into {a}.", PWM),
    ("I do my shopping at {a}.",
     "{a} has gone up in price now but it's still cheaper than anywhere else round here.",
     GROCERY),
    ("I'm with {a} for my mobile.", "{a} upgraded me to unlimited data for the same price!",
     CARRIERS),
    ("Our internet's with {a}.",
     "{a} came round and swapped the router, so fingers crossed it's faster.", ISPS),
    ("My running coach is {a}.", "{a} switched my long run from Sunday to Saturday.", COACHES),
    ("I see {a} for therapy.", "Had a really good session with {a} today.", THERAPISTS),
    ("{a} is our babysitter.", "{a}'s doing Wednesdays now as well as Fridays.", BABYSITTERS),
    ("Our production stuff runs on {a}.",
     "We migrated the last on-prem servers to {a} this month.", CLOUD),
    ("We go to {a} on Sundays.", "There's a new minister at {a} now, seems nice.", CHURCHES),
    ("My rent is {a} a month.", "I pay the {a} on the first of the month by standing order.",
     RENT_S),
    ("I'm on the quiz team {a}.",
     "We came second last night — first time {a} has made the top three!", QUIZ),
    ("My laptop's a {a}.", "Upgraded the RAM in my {a} to 32GB.", LAPTOPS),
    ("{a} is my browser.", "Switched {a} to dark mode finally.", BROWSERS),
    ("I keep my notes in {a}.", "I switched the sync for {a} from Dropbox to iCloud.",
     LOCAL_NOTES),
    ("My accountant is {a}.", "{a} says I owe less tax this year than I thought.", ACCOUNTANTS),
    ("I get my prescriptions from {a}.",
     "{a} is now delivering my repeat prescription, saves me a trip.", PHARMACY),
    ("I always fly {a}.", "{a} moved my flight from 9am to 11am, annoying.", AIRLINES),
    ("Our CI is {a}.", "Moved our deploy scripts from bash into {a}.", CI),
    ("My phone's an old {a}.", "Got a new case for my {a}, the old one was falling apart.",
     PHONES),
    ("My allotment is {a}.", "Planted potatoes on {a} now that it's warmed up.", ALLOTMENTS),
    ("My usual is a {a}.", "The café by work does a really good {a}, better than the station one.",
     COFFEE),
    ("{a} walks our dog.", "{a} takes him out twice a day now instead of once.", DOGWALKERS),
    ("Book club is on {a}.", "For book club on {a} we're reading Piranesi, finally something short.",
     BOOKCLUB),
]

SMALL_TALK = [
    "Ugh, it's been raining all week.",
    "Making a lasagne tonight, wish me luck.",
    "The match last night was unreal.",
    "Watched a great documentary about octopuses yesterday.",
    "Just booked a long weekend in Lisbon for May!",
    "My sister's coming to stay next week.",
    "Tried that new ramen place, solid 8/10.",
    "Remind me to water the plants tomorrow.",
    "Can you believe it's nearly the end of the year already?",
    "Finished the book I was reading, the ending was a bit rushed.",
    "The heating's been acting up again.",
    "Long day. Just want to sit on the sofa.",
]
RESTATE = ["Like I said before: ", "Just so it's noted again - ", "(reminder) "]
FIRST_LEAD = ["Just so you know, ", "For the record, ", "So, ", "FYI "]
LATER_LEAD = ["btw ", "Oh, and ", "Quick one: ", "fyi ", "Update: "]

CATEGORIES = [  # (category, id prefix, templates, expect_supersession)
    ("contradiction_unregistered", "co", CONTRADICTION, True),
    ("multi_valued_addition", "mu", ADDITION, False),
    ("unrelated_same_subject", "un", UNRELATED, False),
    ("old_value_mentioned_kept", "me", MENTIONED, False),
]
MINIMUMS = {"contradiction_unregistered": (120, 40), "multi_valued_addition": (60, 20),
            "unrelated_same_subject": (60, 20), "old_value_mentioned_kept": (60, 20)}


def _lead(rng: random.Random, leads: list[str], template: str, text: str) -> str:
    """Prefix a casual opener; lower-case the template's first word unless it is 'I...' or a value."""
    lead = rng.choice(leads)
    if template.lower().startswith("btw"):
        return text
    if template.startswith("{") or text.startswith("I ") or text.startswith("I'"):
        return lead + text
    return lead + text[0].lower() + text[1:]


def _values(rng: random.Random, pool_a: list, pool_b: list | None, n: int) -> list[tuple[str, str]]:
    """n (a, b) pairs: distinct first values; b differs from a."""
    if pool_a and isinstance(pool_a[0], tuple):
        return rng.sample(pool_a, n)
    firsts = rng.sample(pool_a, n)
    out = []
    for a in firsts:
        rest = [v for v in (pool_b if pool_b is not None else pool_a) if v != a]
        out.append((a, rng.choice(rest)))
    return out


def _stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:00Z")


def build() -> list[dict]:
    rng = random.Random(SEED)
    rows = []
    for category, prefix, specs, expect in CATEGORIES:
        pairs = [(s[0], s[1]) for s in specs]
        assert len(set(pairs)) == len(pairs), f"duplicate phrasing pair in {category}"
        k = 0
        for spec in specs:
            first_t, later_t, pool_a = spec[0], spec[1], spec[2]
            pool_b = spec[3] if len(spec) > 3 else None
            for a, b in _values(rng, pool_a, pool_b, PER_PAIR):
                k += 1
                speaker = rng.choice(SPEAKERS)
                first = first_t.format(o=a, n=b, a=a, b=b)
                later = later_t.format(o=a, n=b, a=a, b=b)
                if rng.random() < 0.15:
                    first = _lead(rng, FIRST_LEAD, first_t, first)
                if rng.random() < 0.2:
                    later = _lead(rng, LATER_LEAD, later_t, later)
                if rng.random() < 0.05:
                    later = later.lower()
                t0 = datetime(2023, 1, 2, 0, 0) + timedelta(
                    days=rng.randrange(0, 600), hours=rng.randrange(7, 22),
                    minutes=rng.choice([0, 10, 15, 30, 45, 50]))
                t2 = t0 + timedelta(days=rng.randrange(30, 320), hours=rng.randrange(-5, 6),
                                    minutes=rng.choice([0, 5, 20, 30, 40]))
                turns = [{"speaker": speaker, "content": first, "reference_time": _stamp(t0)}]
                if rng.random() < THIRD_TURN_P:
                    mid = t0 + (t2 - t0) * rng.uniform(0.2, 0.8)
                    mid = mid.replace(second=0, microsecond=0)
                    if rng.random() < 0.6:
                        extra = rng.choice(SMALL_TALK)
                    else:
                        extra = rng.choice(RESTATE) + first
                    turns.append({"speaker": speaker, "content": extra,
                                  "reference_time": _stamp(mid)})
                turns.append({"speaker": speaker, "content": later, "reference_time": _stamp(t2)})
                stale = a if expect else None
                if stale is not None:
                    assert stale in first, (stale, first)
                rows.append({
                    "id": f"ho-{prefix}-{k:03d}",
                    "category": category,
                    "speaker": speaker,
                    "turns": turns,
                    "subject": speaker,
                    "attribute": None,
                    "stale": stale,
                    "current": [],
                    "expect_supersession": expect,
                })
    return rows


def summary() -> dict[str, tuple[int, int, int]]:
    """category -> (phrasing pairs, of which the later turn names the old value, cases)."""
    out = {}
    for category, _, specs, _ in CATEGORIES:
        named = sum(1 for s in specs if "{o}" in s[1] or "{a}" in s[1])
        out[category] = (len(specs), named, len(specs) * PER_PAIR)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the file is not up to date")
    a = ap.parse_args(argv)
    rows = build()
    counts = Counter(r["category"] for r in rows)
    for category, (n_min, pairs_min) in MINIMUMS.items():
        assert counts[category] >= n_min, (category, counts[category])
        assert summary()[category][0] >= pairs_min, (category, summary()[category])
    if a.check:
        return write_or_check(OUT, rows, check=True)
    write_or_check(OUT, rows, check=False)
    print(f"wrote {len(rows)} cases to {OUT}")
    for category, (pairs, named, n) in summary().items():
        print(f"  {category}: {n} cases, {pairs} phrasing pairs ({named} name the old value)")
    third = sum(1 for r in rows if len(r["turns"]) == 3)
    print(f"  with a third turn: {third} ({third / len(rows):.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
