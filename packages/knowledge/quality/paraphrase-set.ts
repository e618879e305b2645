/**
 * A paraphrase set for retrieval: each fact sits in one post among three look-alike posts of the same
 * topic and vocabulary, and the question asks for it in other words. Written broad (training,
 * food, music, money, travel, craft, tech, health, pets, garden, study) so that nothing is tuned to
 * one field. Used by paraphrase.test.ts and the retrieval bench (scripts/bench).
 */
export interface ParaphraseFact {
  /** The post that answers the question. */
  answer: string;
  /** Three posts on the same topic, with its words, that do not answer it. */
  lookalikes: [string, string, string];
  /** The question, in other words than the answer's. */
  question: string;
}

export const PARAPHRASE_FACTS: ParaphraseFact[] = [
  {
    answer:
      'Hydration on long sessions: I drink a litre of water with electrolytes for every hour I train past the first one.',
    lookalikes: [
      'Hydration on rest days: I keep a bottle on my desk and sip plain water between calls.',
      'Hydration in the morning: a glass of water with lemon before coffee wakes me up.',
      'Hydration and coffee: two cups a day do not dehydrate you as much as people think.',
    ],
    question: 'How do you keep your fluids up during long workouts?',
  },
  {
    answer: 'Sleep: I am in bed by 10 pm and up at 6 am, eight hours every night, even on weekends.',
    lookalikes: [
      'Sleep and screens: my phone goes into a drawer an hour before bed.',
      'Sleep and naps: a twenty minute nap after lunch on heavy training days.',
      'Sleep tracking: I stopped wearing the ring because the scores made me anxious.',
    ],
    question: 'How much rest do you get at night, and when do you turn in?',
  },
  {
    answer: 'Warm-up: five minutes of skipping rope, then leg swings and hip circles before every run.',
    lookalikes: [
      'Cool-down: a slow walk and calf stretches after every run.',
      'Warm-up for lifting: empty bar sets before adding plates.',
      'Warm-up in winter: I wear gloves and a hat for the first kilometre.',
    ],
    question: 'What do you do to get loose before you head out jogging?',
  },
  {
    answer:
      'Marathon fuelling: one energy gel every 40 minutes, starting at minute 40, washed down with water.',
    lookalikes: [
      'Marathon shoes: I race in carbon-plated shoes and train in cushioned ones.',
      'Marathon pacing: the first half two seconds per kilometre slower than goal pace.',
      'Marathon taper: three weeks of less volume but the same intensity.',
    ],
    question: 'How often do you take in carbs while racing 42 km?',
  },
  {
    answer: 'Breakfast: overnight oats with 40 grams of oats, a banana and a spoon of peanut butter.',
    lookalikes: [
      'Lunch: a big salad with chickpeas, feta and olive oil.',
      'Dinner: salmon, rice and green beans three times a week.',
      'Snacks: an apple and a handful of almonds in the afternoon.',
    ],
    question: 'What is the first meal of your day?',
  },
  {
    answer: 'Protein: I aim for 1.6 grams per kilogram of body weight, spread over four meals.',
    lookalikes: [
      'Protein powder: I use an unflavoured whey isolate from a local shop.',
      'Protein bars: most of them are candy bars with good marketing.',
      'Protein and plants: lentils and tofu cover most of it for my vegan clients.',
    ],
    question: 'How much of that muscle-building macronutrient should someone my size eat daily?',
  },
  {
    answer: 'Guitar practice: thirty minutes a day, ten of them with a metronome on scales.',
    lookalikes: [
      'Guitar strings: I change them every two months or before a gig.',
      'Guitar tuning: drop D for most of the heavier songs.',
      'Guitar amps: a small tube amp is all you need at home.',
    ],
    question: 'How long should I spend on my instrument each day, and how?',
  },
  {
    answer: 'Singing: I warm up my voice with lip trills and humming for ten minutes before recording.',
    lookalikes: [
      'Singing and tea: honey and ginger after long sessions, never before.',
      'Singing lessons: I took two years of classical training as a teenager.',
      'Singing live: in-ear monitors changed everything on stage.',
    ],
    question: 'How do you prepare your vocal cords ahead of a studio take?',
  },
  {
    answer: 'Emergency fund: keep six months of rent and bills in a savings account you never touch.',
    lookalikes: [
      'Savings accounts: compare the interest rates every year and switch banks if needed.',
      'Savings for holidays: a separate pot that fills with ten percent of each pay cheque.',
      'Savings apps: rounding up card payments is fun but adds very little.',
    ],
    question: 'How big a cushion should I set aside for when things go wrong?',
  },
  {
    answer: 'Investing: I put a fixed amount into a world index fund on the first of every month.',
    lookalikes: [
      'Investing in single stocks: I did it once and lost on every pick.',
      'Investing and crypto: not for money you need in the next ten years.',
      'Investing fees: an expense ratio above half a percent eats your returns.',
    ],
    question: 'What is your routine for buying into the markets?',
  },
  {
    answer:
      'Packing: I travel with one 40-litre backpack for trips of any length and do laundry every five days.',
    lookalikes: [
      'Packing cubes: one for tops, one for bottoms, one for cables.',
      'Packing toiletries: solid shampoo bars get through security without trouble.',
      'Packing for cold trips: merino layers instead of one thick jacket.',
    ],
    question: 'What kind of luggage do you bring when you go abroad for weeks?',
  },
  {
    answer:
      'Jet lag: I switch to the local time on the plane and get sunlight in the first morning after landing.',
    lookalikes: [
      'Long flights: an aisle seat so I can walk every hour.',
      'Airport lounges: worth it only on layovers of more than three hours.',
      'Flight deals: booking on a Tuesday is a myth.',
    ],
    question: 'How do you handle the time difference after flying east?',
  },
  {
    answer: 'Sourdough: my starter gets fed at a 1:1:1 ratio of starter, flour and water every twelve hours.',
    lookalikes: [
      'Sourdough scoring: one deep cut at a 30 degree angle gives the best ear.',
      'Sourdough flour: a mix of bread flour and ten percent rye.',
      'Sourdough baking: a dutch oven at 250 degrees for twenty minutes with the lid on.',
    ],
    question: 'How often and with what proportions do you nourish the culture for your bread?',
  },
  {
    answer: 'Pasta water: salt it until it tastes like the sea, about ten grams per litre.',
    lookalikes: [
      'Pasta shapes: rigatoni for thick sauces, spaghetti for oil-based ones.',
      'Pasta sauce: finish it in the pan with a ladle of the cooking water.',
      'Pasta fresh or dried: dried is better for most weeknight dishes.',
    ],
    question: 'How much seasoning goes in the pot before the noodles are boiled?',
  },
  {
    answer:
      'Photography: for portraits I shoot at f/2 with a 85 mm lens and keep the sun behind the subject.',
    lookalikes: [
      'Photography editing: I use presets only as a starting point.',
      'Photography for landscapes: a tripod and the blue hour after sunset.',
      'Photography gear: the camera matters less than the lens.',
    ],
    question: 'What aperture and focal length do you use when taking pictures of people?',
  },
  {
    answer: 'Video editing: I cut every vlog on a laptop in DaVinci Resolve, color graded with one LUT.',
    lookalikes: [
      'Video thumbnails: a face, three words and strong contrast.',
      'Video length: eight to twelve minutes works best for my channel.',
      'Video microphones: a shotgun mic on the camera for outdoor shots.',
    ],
    question: 'Which software do you put your clips together in?',
  },
  {
    answer: 'Yoga: I hold each pose in the evening flow for five slow breaths, never longer.',
    lookalikes: [
      'Yoga mats: a thick mat for the knees, a thin one for travel.',
      'Yoga styles: vinyasa in the morning, yin on Sundays.',
      'Yoga blocks: two cork blocks help beginners reach the floor.',
    ],
    question: 'For how long do you stay in each position during your night-time session?',
  },
  {
    answer: 'Meditation: twelve minutes every morning, counting breaths from one to ten and starting over.',
    lookalikes: [
      'Meditation apps: guided sessions helped me start but I stopped using them.',
      'Meditation posture: a cushion under the hips keeps the back straight.',
      'Meditation retreats: a silent weekend once a year.',
    ],
    question: 'What is your daily mindfulness practice like?',
  },
  {
    answer:
      'Language learning: I learned Spanish with twenty new flashcards a day and one hour of conversation a week.',
    lookalikes: [
      'Language apps: streaks keep you coming back but teach little grammar.',
      'Language podcasts: I listen to slow news while cooking.',
      'Language exams: the B2 certificate took me four months of preparation.',
    ],
    question: 'How did you pick up your second tongue?',
  },
  {
    answer: 'Tomatoes: water them deeply twice a week at the base, never on the leaves.',
    lookalikes: [
      'Tomato varieties: cherry tomatoes ripen first on a balcony.',
      'Tomato support: a tall cage beats a single stake.',
      'Tomato seeds: start them indoors eight weeks before the last frost.',
    ],
    question: 'How should I irrigate the red fruit plants in my veg patch?',
  },
  {
    answer:
      'Houseplants: my monstera gets a cup of water only when the top five centimetres of soil are dry.',
    lookalikes: [
      'Houseplant light: most of them like bright, indirect light by a window.',
      'Houseplant pots: always pick ones with a drainage hole.',
      'Houseplant pests: a drop of dish soap in water takes care of aphids.',
    ],
    question: 'How do I know when my big leafy indoor plant is thirsty?',
  },
  {
    answer: 'Dog training: sessions of five minutes, three times a day, with tiny treats the size of a pea.',
    lookalikes: [
      'Dog food: a raw diet is not better for most dogs.',
      'Dog walks: two long walks and one sniffing walk a day.',
      'Dog toys: a frozen lick mat keeps him calm when I leave.',
    ],
    question: 'How long and how often should I practise commands with my puppy?',
  },
  {
    answer: 'Cat litter: one more box than the number of cats, scooped every day.',
    lookalikes: [
      'Cat food: wet food twice a day keeps them hydrated.',
      'Cat scratching: a tall sisal post by the sofa saved it.',
      'Cat vaccines: once a year with the check-up.',
    ],
    question: 'How many toilets do my two kitties need?',
  },
  {
    answer: 'Laptop: I code on a 14-inch machine with 32 GB of memory and an external monitor at home.',
    lookalikes: [
      'Laptop bags: a slim sleeve inside my backpack.',
      'Laptop stands: raise the screen to eye level to spare your neck.',
      'Laptop batteries: keep the charge between 20 and 80 percent.',
    ],
    question: 'What computer do you program on, and how much RAM has it got?',
  },
  {
    answer:
      'Keyboard: I type on a split mechanical keyboard with brown switches since my wrists started hurting.',
    lookalikes: [
      'Keyboard shortcuts: learn ten of them in your editor and you save hours.',
      'Keyboard layouts: I tried Colemak for a month and went back.',
      'Keyboard cleaning: compressed air once a month.',
    ],
    question: 'What do you write on to protect your hands from pain?',
  },
  {
    answer: 'Skin care: sunscreen of factor 50 every morning, even in winter, is the one step I never skip.',
    lookalikes: [
      'Skin care at night: a gentle cleanser and a plain moisturiser.',
      'Skin care and diet: sugar makes my breakouts worse.',
      'Skin care products: fewer is better; five is the most I use.',
    ],
    question: 'What UV protection do you put on your face daily?',
  },
  {
    answer: 'Haircut: I get a trim every six weeks to keep the ends healthy.',
    lookalikes: [
      'Hair washing: twice a week with a sulphate-free shampoo.',
      'Hair drying: air dry when I can, low heat when I cannot.',
      'Hair colour: I stopped dyeing it last year.',
    ],
    question: 'How regularly do you visit the barber or stylist?',
  },
  {
    answer:
      'Climbing: I train finger strength on a hangboard for ten seconds on, three minutes off, six rounds.',
    lookalikes: [
      'Climbing shoes: size them snug but not painful.',
      'Climbing outdoors: always check the anchors before lowering.',
      'Climbing chalk: liquid chalk first, then a little dry chalk.',
    ],
    question: 'What is your protocol for building grip in the fingers?',
  },
  {
    answer: 'Swimming: my weekly set is 10 x 100 metres freestyle with 20 seconds rest between each.',
    lookalikes: [
      'Swimming goggles: mirrored lenses for outdoor pools.',
      'Swimming technique: breathe every three strokes to stay balanced.',
      'Swimming caps: silicone lasts longer than latex.',
    ],
    question: 'What pool workout do you do each week?',
  },
  {
    answer: 'Cycling: I ride at 90 revolutions per minute on the flats and let it drop to 75 on climbs.',
    lookalikes: [
      'Cycling tyres: 28 millimetres at lower pressure ride smoother.',
      'Cycling helmets: replace yours after any crash.',
      'Cycling kit: bib shorts are worth the price.',
    ],
    question: 'What pedalling cadence do you hold on the bike?',
  },
  {
    answer: 'Knitting: a beginner scarf needs about 200 grams of chunky wool and 8 mm needles.',
    lookalikes: [
      'Knitting patterns: start with garter stitch before trying cables.',
      'Knitting tension: make a swatch before every project.',
      'Knitting needles: bamboo is kinder on the hands than metal.',
    ],
    question: 'How much yarn should I buy for my first neck warmer?',
  },
  {
    answer:
      'Painting: I mix every skin tone from only three paints: red, yellow ochre and ultramarine, plus white.',
    lookalikes: [
      'Painting brushes: synthetic brushes for acrylic, hog hair for oil.',
      'Painting canvas: I prime it twice with gesso.',
      'Painting light: a north-facing window gives the most even light.',
    ],
    question: 'Which colours do you combine to get flesh tones?',
  },
  {
    answer: 'Chess: I study one endgame a day and play no more than three rapid games.',
    lookalikes: [
      'Chess openings: the London system is a good start for beginners.',
      'Chess clocks: I play ten minutes plus five seconds.',
      'Chess books: one great book beats ten videos.',
    ],
    question: 'How do you get better at the board game every day?',
  },
  {
    answer: 'Streaming: I go live on Tuesdays and Fridays at 8 pm Central European Time for three hours.',
    lookalikes: [
      'Streaming setup: one camera, one mic and a green screen.',
      'Streaming chat: two moderators keep it friendly.',
      'Streaming games: mostly indie titles and some speedruns.',
    ],
    question: 'When can I watch you broadcast, and for how long?',
  },
  {
    answer:
      'Posture: I set a timer to stand up and walk for three minutes every forty-five minutes of desk work.',
    lookalikes: [
      'Office chairs: lumbar support matters more than the price.',
      'Standing desks: alternate, never stand all day.',
      'Desk lamps: warm light in the evening helps me wind down.',
    ],
    question: 'How often should I get up from the computer during a workday?',
  },
  {
    answer: 'Recovery: a cold plunge of two minutes at 10 degrees after my hardest session of the week.',
    lookalikes: [
      'Recovery and massage: a foam roller on the quads and calves.',
      'Recovery days: an easy walk and lots of food.',
      'Recovery sleep: the most underrated tool there is.',
    ],
    question: 'Do you use icy water after training, and how long do you stay in?',
  },
  {
    answer: 'Budget: I split my income into 50 percent needs, 30 percent wants and 20 percent savings.',
    lookalikes: [
      'Budget apps: a spreadsheet works just as well.',
      'Budget reviews: every Sunday evening for ten minutes.',
      'Budget and debt: pay the highest interest card first.',
    ],
    question: 'How do you divide your monthly pay?',
  },
  {
    answer: 'Coffee: I brew with 15 grams of beans for 250 millilitres of water at 94 degrees.',
    lookalikes: [
      'Coffee grinders: a burr grinder is the best upgrade.',
      'Coffee beans: light roasts for filter, darker for espresso.',
      'Coffee and sleep: none after two in the afternoon.',
    ],
    question: 'What ratio do you use for your morning pour-over?',
  },
  {
    answer:
      'Stretching: hold the hamstring stretch for thirty seconds, three times per leg, after every workout.',
    lookalikes: [
      'Stretching before workouts: dynamic moves, not long holds.',
      'Stretching straps: useful when you cannot reach your toes.',
      'Stretching and pain: never stretch into a sharp pain.',
    ],
    question: 'How long should the back-of-thigh pose last after exercising?',
  },
  {
    answer: 'Writing: I write 500 words every morning before I open my email.',
    lookalikes: [
      'Writing tools: a plain text editor with no distractions.',
      'Writing and editing: never edit on the same day you write.',
      'Writing groups: one honest reader is worth more than ten.',
    ],
    question: 'What is your daily output target for your drafts?',
  },
];

/**
 * Twenty look-alike recipes of one kind: the same ingredients in different amounts. A follow-up
 * ("How much whey goes in it?") is answered only by the recipe named in the turn before.
 */
export interface FollowUpCase {
  /** The fan's earlier turn naming the recipe. */
  earlier: string;
  /** The follow-up, which does not name it. */
  question: string;
  /** The recipe that answers it. */
  answer: string;
}

const BOWLS = [
  'Granite',
  'Sunrise',
  'Harbour',
  'Meadow',
  'Summit',
  'Ember',
  'Glacier',
  'Orchard',
  'Canyon',
  'Lagoon',
  'Tundra',
  'Prairie',
  'Cedar',
  'Coral',
  'Dune',
  'Aurora',
  'Basalt',
  'Willow',
  'Comet',
  'Fjord',
];

const FOLLOW_UPS: [string, (name: string) => string][] = [
  ['How much whey goes in it?', (n) => `Tell me about the ${n} Bowl`],
  ['How many grams of oats does it take?', (n) => `What is the ${n} Bowl?`],
  ['And how much peanut butter do I add?', (n) => `I want to make the ${n} Bowl`],
  ['What about the berries, how many?', (n) => `Can you share the ${n} Bowl recipe?`],
];

export const RECIPES: { name: string; text: string }[] = BOWLS.map((b, i) => {
  const name = `${b} Bowl`;
  const whey = 20 + i * 2;
  const oats = 30 + ((i * 7) % 40);
  const pb = 5 + ((i * 3) % 20);
  const berries = 40 + ((i * 11) % 90);
  return {
    name,
    text: `${name}: a protein breakfast bowl. Mix ${oats} grams of oats with ${whey} grams of whey protein and 200 millilitres of milk, stir in ${pb} grams of peanut butter, and top with ${berries} grams of berries and a pinch of cinnamon.`,
  };
});

export const FOLLOW_UP_CASES: FollowUpCase[] = RECIPES.map((r, i) => {
  const [question, earlier] = FOLLOW_UPS[i % FOLLOW_UPS.length]!;
  return { earlier: earlier(r.name.replace(/ Bowl$/, '')), question, answer: r.text };
});

/** A handbook whose fact stands on its third page only, among pages on the same subject. */
export const HANDBOOK_PAGES: string[][] = [
  [
    'Club handbook: training week',
    'Monday is an easy run of forty minutes for every group.',
    'Wednesday is the interval session on the track at the stadium.',
  ],
  [
    'Club handbook: long runs',
    'The long run is on Sunday morning and grows by ten minutes every second week.',
    'Bring water and a gel for anything longer than ninety minutes.',
  ],
  [
    'Club handbook: the week 9 long run',
    'In week 9 the Sunday long run lasts two hours and twenty minutes, the longest of the plan.',
    'It starts at the boathouse at 8 am and follows the river loop twice.',
  ],
  [
    'Club handbook: racing',
    'Race week keeps Wednesday intervals short and Sunday is race day.',
    'Collect your bib on Saturday at the club house.',
  ],
];
export const HANDBOOK_FACT = 'two hours and twenty minutes';
export const HANDBOOK_QUESTION = 'How long is the Sunday long run in week 9?';
