import type { ParaphraseFact } from './running-paraphrases.ts';

/**
 * A third paraphrase set for issue 37 (guitar practice at home), written in full before any tuning
 * of the round that added it, on another topic than the coffee and running sets: every fact sits
 * among three look-alikes that share its vocabulary, and the fan asks for it in other words. The
 * first half (`GUITAR_TUNING`) may be looked at while tuning; the second half (`GUITAR_HELD_OUT`)
 * is only measured. `GUITAR_UNRELATED` are questions the material does not answer.
 */
export const GUITAR_FACTS: ParaphraseFact[] = [
  {
    answer:
      'Practice length: I practise for forty-five minutes every day, split into three blocks of fifteen minutes with a short pause between them.',
    lookalikes: [
      'Practising every day matters more than practising for hours at the weekend.',
      'A short pause to stretch the hands keeps them from cramping.',
      'Fifteen minutes of noodling is not the same as fifteen minutes of focused practice.',
    ],
    question: 'How long do you sit down with the instrument each day, and do you break it up?',
  },
  {
    answer:
      'Changing strings: I put a new set of strings on my acoustic every six weeks, or sooner when they sound dull and feel gritty.',
    lookalikes: [
      'Coated strings cost more but keep their brightness longer.',
      'An acoustic guitar with new strings needs a day to settle in tune.',
      'Old strings can feel gritty because of sweat and skin.',
    ],
    question: 'How frequently do you swap out the wires on your six-string?',
  },
  {
    answer:
      'String gauge: I use light gauge strings, 11 to 52, because heavier ones hurt my fingertips on long sessions.',
    lookalikes: [
      'Heavier strings give a louder, fuller sound on a dreadnought.',
      'Fingertips hurt for the first few weeks until calluses form.',
      'Long sessions with a capo high up the neck can pull the strings sharp.',
    ],
    question: 'How thick are the wires you fit, and why that weight?',
  },
  {
    answer:
      'Metronome: I start a new passage at 60 beats per minute and raise the tempo by four beats only after three clean repetitions.',
    lookalikes: [
      'A metronome app on the phone is as good as a clicking box.',
      'Clean repetitions train the hands better than fast sloppy ones.',
      'Most pop songs sit between 90 and 130 beats per minute.',
    ],
    question: 'How do you build up speed on a tricky bit with the clicker?',
  },
  {
    answer:
      'Warm-up: before playing I spend five minutes on slow chromatic runs across all six strings, one finger per fret.',
    lookalikes: [
      'Chromatic scales use every fret, so they sound odd as music.',
      'Cold hands in winter make the first minutes of playing clumsy.',
      'One finger per fret is the classic rule for the left hand in position playing.',
    ],
    question: 'What do you do to loosen up your hands before you start?',
  },
  {
    answer:
      'Tuning: I tune with a clip-on tuner at the start of every session and check again after twenty minutes, since the strings drift as the room warms.',
    lookalikes: [
      'A clip-on tuner reads the vibration of the headstock, not the sound in the room.',
      'Alternate tunings like DADGAD open up new chord shapes.',
      'Room temperature and humidity change how a wooden guitar sounds.',
    ],
    question: 'How do you make sure your instrument stays at the right pitch while you play?',
  },
  {
    answer:
      'Barre chords: I practise the F barre chord by pressing with the side of my index finger and pulling back with my arm, not squeezing with the thumb.',
    lookalikes: [
      'The F chord is the first big hurdle for most beginners.',
      'Squeezing the neck too hard makes the hand tired within minutes.',
      'The index finger takes most of the load in any barre shape.',
    ],
    question: 'What is your trick for holding down every string at once with a single digit?',
  },
  {
    answer:
      'Calluses: I built calluses by playing twenty minutes a day for three weeks and never soaking my hands in water right before practice.',
    lookalikes: [
      'Calluses peel off after a break of a few weeks from playing.',
      'Soaking hands in warm water before a concert relaxes them for some players.',
      'Nylon strings are kinder to the fingers of a beginner.',
    ],
    question: 'How did you toughen up your fingertips?',
  },
  {
    answer:
      'Learning by ear: I learn a new song by humming the melody first, then finding its notes on the high E string, one phrase at a time.',
    lookalikes: [
      'Tabs online are often wrong, even the top-rated ones.',
      'A new song is easier to learn when you know its lyrics.',
      'The high E string is the thinnest one and breaks most often.',
    ],
    question: 'How do you work out a tune without any written notation?',
  },
  {
    answer:
      'Recording myself: once a week I record a take on my phone and listen back the next day, because mistakes are easier to hear with fresh ears.',
    lookalikes: [
      'A phone records good enough sound to share a rough demo.',
      'Listening back to your own voice feels awkward at first.',
      'Fresh strings make a recording sound brighter.',
    ],
    question: 'Do you ever capture your playing and review it, and when?',
  },
  {
    answer:
      "Posture: I sit on a chair without arms, with the guitar's waist on my right thigh and the neck angled up at about 45 degrees.",
    lookalikes: [
      'Classical players rest the guitar on the left thigh with a footstool.',
      'A strap lets you stand up, but the guitar hangs lower than when you sit.',
      'Sitting for an hour with a rounded back leads to a sore neck.',
    ],
    question: 'What is your body position while practising at home?',
  },
  {
    answer:
      'Scales: I practise the minor pentatonic in all five positions, joining two neighbouring boxes each week until I can move across the whole neck.',
    lookalikes: [
      'The minor pentatonic is the basis of most blues solos.',
      'Major scales have seven notes, the pentatonic only five.',
      'Moving across the neck smoothly takes slides and position shifts.',
    ],
    question: 'How do you learn the five-note pattern all over the fretboard?',
  },
  {
    answer:
      'Fingerpicking: my thumb plays the bass notes on the three lowest strings while index, middle and ring fingers take the top three, one string each.',
    lookalikes: [
      'Fingerpicking patterns like Travis picking take months to feel natural.',
      'Long nails on the picking hand give a brighter tone.',
      'The bass notes of a chord usually sit on the lowest strings.',
    ],
    question: 'Which digit plucks which wire when you play without a plectrum?',
  },
  {
    answer:
      'Picks: I use a 0.73 millimetre pick for strumming and a stiff 1.5 millimetre one for single-note lines.',
    lookalikes: [
      'Picks come in nylon, celluloid and even stone.',
      'Strumming from the wrist, not the elbow, keeps the rhythm relaxed.',
      "Losing picks inside the guitar's sound hole happens to everyone.",
    ],
    question: 'How thick is the bit of plastic you hold for chords, and for melodies?',
  },
  {
    answer:
      'Strumming: I keep my hand moving down and up in steady eighth notes, even on beats I do not hit, so the rhythm never stumbles.',
    lookalikes: [
      'Strumming too hard makes the strings buzz against the frets.',
      'Eighth notes are twice as fast as quarter notes.',
      'A steady rhythm matters more to a band than flashy solos.',
    ],
    question: 'How do you keep your right-hand motion even when some hits are skipped?',
  },
  {
    answer:
      'Chord changes: I drill two chords at a time for one minute, counting how many clean switches I make, and try to beat the count the next day.',
    lookalikes: [
      'Open chords like G, C and D are the first ones most people learn.',
      'A clean switch means every string rings without a buzz.',
      'Counting out loud helps keep time in a group.',
    ],
    question: 'How do you get quicker at moving between shapes?',
  },
  {
    answer:
      'Storage: I keep the guitar in its case with a humidifier pack in winter, because dry air from the heating can crack the top.',
    lookalikes: [
      'A guitar on a wall hanger is easier to pick up and play.',
      'Winter is when fret ends stick out of the neck, as the wood shrinks.',
      'Hard cases protect better than padded gig bags on trips.',
    ],
    question: 'Where do you put your instrument during the cold months, and why?',
  },
  {
    answer:
      'Fretboard notes: I spend ten minutes a day learning the notes on the fretboard, naming one note everywhere it appears on the neck.',
    lookalikes: [
      'Music theory scares beginners, but it is just names for sounds.',
      'Fret markers at the third, fifth and seventh frets help you find your way.',
      'The twelfth fret is where the notes repeat an octave higher.',
    ],
    question: 'How are you memorising where each pitch sits along the instrument?',
  },
  {
    answer:
      'Mistakes: when I stumble on a passage I stop, play the two notes around the mistake slowly five times, and only then go back to the whole phrase.',
    lookalikes: [
      'Everyone makes mistakes on stage, and most of the audience never notices.',
      'A phrase in music is like a sentence in speech.',
      'Playing a passage slowly feels boring but builds accuracy.',
    ],
    question: 'What is your fix when you keep fumbling the same spot?',
  },
  {
    answer:
      'Hand pain: if my wrist aches I stop for the day, and I never play more than an hour without a ten-minute break.',
    lookalikes: [
      'Wrist pain in guitarists often comes from bending it too far on the neck.',
      'A ten-minute break is enough for a coffee, not for a new song.',
      'Playing for an hour at a gig goes by faster than an hour of practice.',
    ],
    question: 'What do you do when your joints start to hurt from playing?',
  },
  {
    answer:
      'Lessons: I see a teacher every two weeks for a 45-minute lesson and use the time in between to work on what we covered.',
    lookalikes: [
      'Online video lessons are cheap but cannot correct your posture.',
      'A good teacher will tell you what to stop doing as well.',
      'Every two weeks the local music shop hosts an open jam.',
    ],
    question: 'How often do you get coaching from a tutor?',
  },
  {
    answer:
      'Amp settings: on my electric I set the gain low, around three, and turn the mids up, so each note of a chord stays clear.',
    lookalikes: [
      'High gain hides mistakes in fast playing.',
      'An electric guitar sounds thin through a laptop speaker.',
      'Chord names on a lead sheet sit above the lyrics.',
    ],
    question: 'How much distortion do you dial in, and which tone knobs do you favour?',
  },
  {
    answer:
      'Practice log: I write the date, the tempo reached and one problem in a notebook after each session.',
    lookalikes: [
      'A notebook by the music stand is handy for lyric ideas.',
      'The tempo of a song can be found with tap-tempo apps.',
      'Each session should end with something fun to play.',
    ],
    question: 'Do you keep track of your progress on paper, and what goes into it?',
  },
  {
    answer:
      "Repertoire: I keep five songs I can play from start to finish and go through all of them every Sunday so I don't forget them.",
    lookalikes: [
      'Sunday afternoons are when I restring and clean the fretboard.',
      'Playing a song from start to finish without stopping is harder than it sounds.',
      'Five songs make a short set at an open mic.',
    ],
    question: 'How do you stop old pieces from slipping out of your memory?',
  },
];

/** The first half: looked at while tuning. */
export const GUITAR_TUNING = GUITAR_FACTS.slice(0, 12);
/** The second half: measured only. */
export const GUITAR_HELD_OUT = GUITAR_FACTS.slice(12);

/** Questions the guitar material does not answer: never answered with a quote. */
export const GUITAR_UNRELATED = [
  'What is the best way to get a red wine stain out of a carpet?',
  'How do I fix a flat tyre on my bike?',
  'Which mortgage is best for a first-time buyer?',
  'How long should I boil an egg for a runny yolk?',
  'What is the tallest mountain in Africa?',
  'Can you recommend a good science fiction novel?',
  'How do I get my toddler to sleep through the night?',
  'Is it safe to use my phone during a thunderstorm?',
  'How do I train my dog to stop barking at the door?',
  'When does your online shop ship orders?',
];
