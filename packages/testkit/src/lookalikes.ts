/**
 * A retrieval set with look-alikes: each fact sits in one passage, and three other passages share its
 * topic and most of its words without holding the answer. A fan's question should bring the passage
 * with the answer to the model; the look-alikes are what a creator's own library looks like (many
 * posts on one subject). Used by the retrieval quality test and the retrieval benchmark.
 */
export interface LookalikeFact {
  /** What a fan asks. */
  question: string;
  /** The passage that answers it. */
  answer: string;
  /** Passages on the same topic, with the same terms, that do not answer it. */
  lookalikes: [string, string, string];
}

export const LOOKALIKE_FACTS: LookalikeFact[] = [
  {
    question: 'How often should I feed my sourdough starter?',
    answer:
      'Feeding schedule: feed your sourdough starter twice a day, morning and evening, with equal weights of flour and water.',
    lookalikes: [
      'A sourdough starter is a living culture of wild yeast and bacteria. Keep your starter in a glass jar.',
      'My favourite flour for the sourdough starter is whole rye; it makes the starter lively and sour.',
      'How often you feed a sourdough starter depends on you; if your starter smells like nail polish, it is hungry.',
    ],
  },
  {
    question: 'What oven temperature do you bake sourdough bread at?',
    answer:
      'I bake sourdough bread in a Dutch oven preheated to 250 °C, then drop the temperature to 230 °C once the lid comes off.',
    lookalikes: [
      'Sourdough bread needs a long cold proof in the fridge; the dough develops flavour overnight.',
      'Score your sourdough bread with a razor blade just before it goes into the oven.',
      'Oven temperature is not everything when you bake sourdough bread; let the bread cool for an hour before cutting.',
    ],
  },
  {
    question: 'How long should my sourdough dough bulk ferment?',
    answer:
      'Bulk fermentation usually takes four to six hours at 24 °C; the dough should rise by about half before shaping.',
    lookalikes: [
      'During bulk I do four sets of stretch and folds to build strength in the sourdough dough.',
      'Shaping the dough is easier after bulk if you flour the counter lightly and work quickly.',
      'A wet sourdough dough is normal with high hydration; wet your hands instead of adding flour.',
    ],
  },
  {
    question: 'How many reps should I do for hypertrophy?',
    answer:
      'For hypertrophy, aim for sets of 6 to 12 reps taken close to failure; that rep range builds the most muscle for most people.',
    lookalikes: [
      'Muscle hypertrophy needs enough protein and sleep; training alone is not enough.',
      'Rest two to three minutes between heavy sets so your strength recovers.',
      'How many reps you do for hypertrophy matters less than effort; track your reps in a notebook.',
    ],
  },
  {
    question: 'How much protein should I eat per day to build muscle?',
    answer:
      'Eat about 1.6 grams of protein per kilogram of body weight per day; more than that adds little extra muscle.',
    lookalikes: [
      'Protein shakes are convenient, but whole food protein is just as good for muscle.',
      'Spread your protein across the day; a protein-rich breakfast helps you stay full.',
      'Should you eat plant protein every day to build muscle? Lentils and tofu work as well as meat does.',
    ],
  },
  {
    question: 'How many rest days a week do you take?',
    answer:
      'I take two rest days a week, usually Wednesday and Sunday, and keep them fully off from the gym.',
    lookalikes: [
      'On rest days I still walk a lot; light movement helps sore legs recover.',
      'Sleep is the real recovery tool: a rest day without sleep does not help much.',
      'My training week is a push, pull and legs split with a long walk on the weekend.',
    ],
  },
  {
    question: 'What guitar strings gauge do you use?',
    answer:
      'On my acoustic guitar I use light gauge strings, 12 to 53, phosphor bronze; they balance tone and playability.',
    lookalikes: [
      'Change your guitar strings every couple of months, or sooner if they sound dull.',
      'Wipe the guitar strings after playing; sweat makes them corrode quickly.',
      'Whatever guitar strings and gauge you use, new strings go out of tune for a day while they stretch.',
    ],
  },
  {
    question: 'How do I tune my guitar to drop D?',
    answer:
      'For drop D tuning, lower only the low E string a whole step down to D; check it against the open D string an octave up.',
    lookalikes: [
      'Standard tuning on guitar is E A D G B E from the thickest string to the thinnest.',
      'A clip-on tuner is the easiest way to tune a guitar in a noisy room.',
      'Many rock songs use alternate tunings; open G is popular for slide guitar.',
    ],
  },
  {
    question: 'How long should I practice guitar each day as a beginner?',
    answer:
      'Beginners should practice guitar about 20 minutes a day; short daily sessions beat one long weekend session.',
    lookalikes: [
      'Practice chord changes slowly at first; speed comes after the guitar feels familiar.',
      'Your fingertips hurt in the first weeks of guitar; the calluses come with time.',
      'How long you practice guitar each day as a beginner matters less than learning songs you love.',
    ],
  },
  {
    question: 'What percentage of my income should I save?',
    answer:
      'Save at least 20 percent of your income; automate the transfer on payday so saving happens first.',
    lookalikes: [
      'Your income will grow over a career; avoid raising your spending every time it does.',
      'Keep your savings in a separate account so you are not tempted to spend them.',
      'Budgeting apps show what percentage of your income you save and where the rest goes.',
    ],
  },
  {
    question: 'How big should my emergency fund be?',
    answer:
      'An emergency fund should cover three to six months of essential expenses, kept in an easy access savings account.',
    lookalikes: [
      'Use the emergency fund only for real emergencies, like a lost job or a broken boiler.',
      'Build your emergency fund before investing in the stock market.',
      'However big your emergency fund should be, refill it after you use it.',
    ],
  },
  {
    question: 'Which index fund do you invest in?',
    answer:
      'I invest in a global all-world index fund with a 0.2 percent fee, bought monthly whatever the market does.',
    lookalikes: [
      'Index funds are cheap because they follow the market instead of paying managers to pick stocks.',
      'Investing is for money you will not need for at least five years.',
      'Do not check your index fund every day; market swings are normal.',
    ],
  },
  {
    question: 'What camera do you shoot your videos with?',
    answer: 'I shoot all my videos on a Sony A7 IV camera with a 24 mm f/1.4 lens, in 4K at 25 frames.',
    lookalikes: [
      'Good light matters more than the camera; sit facing a window when you shoot videos.',
      'Audio makes or breaks your videos; buy a microphone before upgrading the camera.',
      'Whatever camera you shoot your videos with, keep it at eye level.',
    ],
  },
  {
    question: 'What shutter speed should I use for video?',
    answer:
      'Use a shutter speed of double your frame rate for video: 1/50 s at 25 frames per second gives natural motion blur.',
    lookalikes: [
      'For video, lock your exposure so the brightness does not pump as you move.',
      'ND filters let you keep the aperture open for video outside in bright sun.',
      'Shutter speed is one setting to use for video; shoot a flat picture profile to colour grade later.',
    ],
  },
  {
    question: 'Which microphone do you recommend for a podcast?',
    answer:
      'For a podcast I recommend a dynamic microphone like the Shure SM7B; it rejects room noise better than a condenser.',
    lookalikes: [
      'Record your podcast in a small room with soft furnishings to cut the echo.',
      'Keep the microphone a hand width from your mouth for a consistent podcast sound.',
      'Edit out long pauses, but keep the natural rhythm of the podcast conversation.',
    ],
  },
  {
    question: 'How many hours of sleep do I need?',
    answer: 'Most adults need seven to nine hours of sleep a night; under seven, focus and mood suffer.',
    lookalikes: [
      'Keep your bedroom dark and cool; sleep comes more easily.',
      'Screens before bed push sleep later because the light keeps you alert.',
      'How many hours of sleep you need, you will only get with a regular wake-up time.',
    ],
  },
  {
    question: 'When should I stop drinking coffee to sleep well?',
    answer:
      'Stop drinking coffee by 2 pm: caffeine has a half-life of about five hours and still keeps you awake at bedtime.',
    lookalikes: [
      'I love coffee in the morning; a good cup helps me start writing.',
      'Decaf coffee still tastes great and lets you enjoy a cup in the evening.',
      'Drinking coffee is not bad for you; to sleep well, most people do fine with three cups a day.',
    ],
  },
  {
    question: 'How long do you meditate each morning?',
    answer:
      'I meditate for 15 minutes each morning before breakfast, sitting on a cushion with a simple timer.',
    lookalikes: [
      'Meditation is training attention; the mind wandering is part of the practice.',
      'A morning routine works when it is small; pick one habit and keep it.',
      'Breathing exercises calm you quickly before a stressful meeting.',
    ],
  },
  {
    question: 'What is your refund policy for the course?',
    answer:
      'Refund policy: if the course is not for you, email me within 30 days of purchase for a full refund, no questions asked.',
    lookalikes: [
      'The course has eight modules with video lessons and worksheets.',
      'You keep lifetime access to the course, including future updates.',
      'Course students can ask about the refund policy or anything else in the private community.',
    ],
  },
  {
    question: 'How much does the coaching program cost?',
    answer: 'The coaching program costs 490 dollars for twelve weeks, or three payments of 170 dollars.',
    lookalikes: [
      'The coaching program includes weekly calls and a private chat with me.',
      'Coaching works best when you come to every call with one question.',
      'How much the coaching program costs you in time: about two hours a week.',
    ],
  },
  {
    question: 'When does the next cohort start?',
    answer: 'The next cohort starts on March 3rd; enrolment closes a week before, on February 24th.',
    lookalikes: [
      'Each cohort is limited to 40 people so everyone gets feedback.',
      'Past cohort members can join again at a discount.',
      'The cohort meets live on Tuesdays; recordings are shared the same day.',
    ],
  },
  {
    question: 'What time zone are the live calls in?',
    answer: 'All live calls are at 6 pm London time, which is 1 pm in New York and 10 am in Los Angeles.',
    lookalikes: [
      'Live calls are recorded, so you can watch later if you miss one.',
      'Bring your questions to the live calls; I answer as many as time allows.',
      'Live calls last an hour in any time zone, with a short break in the middle.',
    ],
  },
  {
    question: 'How often should I water a snake plant?',
    answer:
      'Water a snake plant about every three weeks, and only when the soil is completely dry; less in winter.',
    lookalikes: [
      'A snake plant tolerates low light, which makes it a great office plant.',
      'Snake plant leaves can be propagated in water or soil.',
      'Water the snake plant well after you repot it, when the roots crack the plastic pot.',
    ],
  },
  {
    question: 'Why are my monstera leaves turning yellow?',
    answer:
      'Yellow monstera leaves are almost always overwatering: the roots sit in wet soil and rot. Let the top half dry out.',
    lookalikes: [
      'A monstera grows its famous split leaves as it matures and gets more light.',
      'Wipe monstera leaves with a damp cloth so they can breathe and catch light.',
      'Give your monstera a moss pole to climb; the leaves get bigger as it climbs.',
    ],
  },
  {
    question: 'What soil mix do you use for succulents?',
    answer: 'My succulent soil mix is half cactus compost and half pumice, so water drains in seconds.',
    lookalikes: [
      'Succulents love bright light; a south window is ideal.',
      'Propagate succulents from leaves: let them callus, then lay them on dry soil.',
      'Succulents change colour under stress from sun or cold, which is normal.',
    ],
  },
  {
    question: 'How long should I rest a steak after cooking?',
    answer:
      'Rest a steak for five to ten minutes after cooking, loosely covered, so the juices settle back into the meat.',
    lookalikes: [
      'Salt your steak an hour before cooking for a better crust.',
      'A cast iron pan gives a steak the deepest sear.',
      'Buy steak with good marbling and rest it on a board; the fat keeps it juicy after cooking.',
    ],
  },
  {
    question: 'What internal temperature is medium rare for steak?',
    answer:
      'Medium rare steak is 54 °C internal temperature; pull it from the pan at 51 °C because it keeps cooking.',
    lookalikes: [
      'Use an instant-read thermometer for steak; guessing by touch takes years.',
      'Thick steaks can be cooked in the oven first and seared at the end.',
      'Let steak come to room temperature for half an hour before it hits the pan.',
    ],
  },
  {
    question: 'How do I make my rice less sticky?',
    answer:
      'To make rice less sticky, rinse it under cold water until the water runs clear; that washes off the surface starch.',
    lookalikes: [
      'Jasmine rice and basmati rice have different textures and aromas.',
      'Cook rice with a lid on and do not lift it while it steams.',
      'Sticky rice is perfect for sushi; make it less sticky only for pilaf.',
    ],
  },
  {
    question: 'What words per minute should a beginner typist aim for?',
    answer:
      'A beginner typist should aim for 40 words per minute with 95 percent accuracy before pushing speed.',
    lookalikes: [
      'Touch typing means typing without looking at the keyboard.',
      'Practice typing with real texts instead of random words.',
      'A comfortable keyboard and good posture make typing sessions longer.',
    ],
  },
  {
    question: 'Which programming language should I learn first?',
    answer:
      'Learn Python as your first programming language: the syntax is readable and it is used everywhere from data to web.',
    lookalikes: [
      'Learning programming is about solving problems; the language matters less than practice.',
      'Build small projects while learning a programming language; tutorials alone do not stick.',
      'Programming languages share ideas: variables, loops and functions appear in all of them.',
    ],
  },
  {
    question: 'How many hours a week do you study Spanish?',
    answer: 'I study Spanish five hours a week: an hour a day on weekdays, mostly conversation practice.',
    lookalikes: [
      'Watching Spanish series with subtitles helps you hear how people really talk.',
      'Spanish grammar feels hard at first; the subjunctive takes a while to click.',
      'A language exchange partner is a free way to practice Spanish.',
    ],
  },
  {
    question: 'How many new flashcards should I add per day?',
    answer: 'Add about 10 new flashcards per day; more than that and the reviews pile up within a few weeks.',
    lookalikes: [
      'Flashcards work because of spaced repetition: you review just before you forget.',
      'Write flashcards in your own words with one fact per card.',
      'Use pictures on flashcards for vocabulary; they stick better than translations.',
    ],
  },
  {
    question: 'What is your running pace for easy runs?',
    answer: 'My easy run pace is about 6 minutes per kilometre, slow enough that I can chat the whole time.',
    lookalikes: [
      'Most of your running should be easy; hard sessions are the minority.',
      'Buy running shoes that feel comfortable in the shop; comfort predicts fewer injuries.',
      'Easy runs in the rain are fine whatever your running pace; wear a cap.',
    ],
  },
  {
    question: 'How many weeks do you train for a marathon?',
    answer:
      'I train 18 weeks for a marathon, building weekly mileage slowly and tapering for the last three weeks.',
    lookalikes: [
      'Marathon day nutrition matters: practice your gels during long training runs.',
      'The marathon wall usually hits around 30 kilometres when glycogen runs low.',
      'However many weeks you train for a marathon, take a week of rest after it.',
    ],
  },
  {
    question: 'How do I stop my swim goggles fogging?',
    answer:
      'To stop goggles fogging, rub a drop of baby shampoo on the lenses, rinse, and never touch the inside with your fingers.',
    lookalikes: [
      'Swim goggles should seal around the eyes without the strap being tight.',
      'Mirrored goggles are great for outdoor swims in bright sun.',
      'Rinse your goggles in fresh water after the pool to protect the seals.',
    ],
  },
  {
    question: 'What is the best time to post on Instagram?',
    answer: 'The best time to post on Instagram for my audience is 7 pm on weekdays, when engagement peaks.',
    lookalikes: [
      'Instagram reels reach new people; photos mostly reach your followers.',
      'Reply to comments on Instagram in the first hour; it signals a lively post.',
      'Whatever time you post on Instagram, use a consistent style so people recognise your posts.',
    ],
  },
  {
    question: 'How long should a YouTube intro be?',
    answer: 'Keep a YouTube intro under 15 seconds: state the promise of the video and start delivering it.',
    lookalikes: [
      'YouTube thumbnails should show a face and at most three words.',
      'Upload to YouTube on a regular schedule so viewers know when to come back.',
      'YouTube analytics show where viewers drop off; watch that graph.',
    ],
  },
  {
    question: 'What size should my newsletter list be before I charge for it?',
    answer:
      'Start charging for a newsletter once the free list reaches about 1,000 subscribers; expect 5 percent to pay.',
    lookalikes: [
      'Write your newsletter on the same day each week so readers expect it.',
      'A welcome email is the most opened email of any newsletter.',
      'Clean your newsletter list of inactive subscribers twice a year.',
    ],
  },
  {
    question: 'How many puppy meals a day should I feed?',
    answer:
      'Feed a puppy three meals a day until six months old, then two meals a day for the rest of its life.',
    lookalikes: [
      'Puppy food has more calories and calcium than adult dog food.',
      'Use some of the puppy kibble as training treats so you do not overfeed.',
      'However many meals a day you feed, a puppy needs a quiet place to sleep.',
    ],
  },
  {
    question: 'How long can I leave my dog home alone?',
    answer: 'An adult dog can be left home alone for about four hours; longer than that, arrange a walker.',
    lookalikes: [
      'Leave your dog a chew toy so being alone is a calm time.',
      'Dogs are social animals; a second dog does not fix separation problems.',
      'Film your dog when you leave it home alone to see how long it copes.',
    ],
  },
];
