/**
 * A fourth paraphrase set for issue 37 (sourdough bread at home), written in full before any tuning
 * of the round that added it, and shaped as the acceptance check describes: each fact is a
 * passage of its own (a short note of two sentences, its own item of the creator's library) among
 * look-alike passages on the same subject with the same words, and the fan asks for it in other
 * words. "Answered from the right passage" means the embedded answerer quotes the passage that
 * holds the fact (any sentence of it) and cites it. The first half (`SOURDOUGH_TUNING`) may be looked
 * at while tuning; the second half (`SOURDOUGH_HELD_OUT`) is only measured. `SOURDOUGH_UNRELATED` are
 * questions the material does not answer.
 */
export interface PassageFact {
  /** The passage that answers (two sentences). */
  passage: string;
  /** What in the passage a right answer carries (a phrase of the passage). */
  key: string;
  /** Passages on the same subject, with its words, that do not answer it. */
  lookalikes: [string, string, string];
  /** What a fan asks, in other words than the passage's (few of its words, some rare synonyms). */
  question: string;
  /** The same need asked plainly, as most fans would: the subject's usual words, not the passage's sentence. */
  plain: string;
}

export const SOURDOUGH_FACTS: PassageFact[] = [
  {
    passage:
      'Feeding the starter: I feed my starter once a day with 50 grams of flour and 50 grams of water. The jar lives on the kitchen counter, away from the sunny window.',
    key: '50 grams of flour and 50 grams of water',
    lookalikes: [
      'A hungry starter smells sharp, a bit like vinegar or nail varnish. The smell fades after one or two feeds.',
      'Rye flour wakes a sluggish starter up faster than white flour does. I keep a small bag of rye just for that.',
      'A kitchen counter near the oven is too warm for a jar of starter in summer. Look for the coolest spot in the room.',
    ],
    question: 'How frequently do you top up your leaven, and with how much?',
    plain: 'How often do you feed your sourdough starter?',
  },
  {
    passage:
      'Storing the starter: when I stop baking for a while, the starter goes into the fridge and gets one feed a week. It keeps like that for months.',
    key: 'into the fridge and gets one feed a week',
    lookalikes: [
      'A starter that has been in the fridge needs two or three feeds at room temperature before it can raise a loaf.',
      'I write the date of the last feed on the lid of the starter jar with a marker.',
      'Dried starter flakes keep for a year in a sealed envelope, and they are how I send starter to friends.',
    ],
    question: 'What do you do with your culture when you go on holiday and skip baking for weeks?',
    plain: 'How do you look after your starter when you are not baking?',
  },
  {
    passage:
      'Hydration: my everyday loaf is 75 percent hydration, so 375 grams of water to 500 grams of flour. Wetter doughs spread too much for me to shape well.',
    key: '75 percent hydration',
    lookalikes: [
      'Whole wheat flour drinks more water than white flour, so a wholemeal dough feels stiffer at the same weights.',
      'Hydration is the weight of the water divided by the weight of the flour, written as a percentage.',
      'A very wet dough gives an open crumb with big holes, if you can handle it.',
    ],
    question: 'What ratio of liquid to meal do you use for your regular bread?',
    plain: 'How wet is your dough?',
  },
  {
    passage:
      'Salt: I add 10 grams of fine sea salt per 500 grams of flour, after the autolyse rather than at the start. Salt slows the yeast down, so it waits.',
    key: '10 grams of fine sea salt per 500 grams of flour',
    lookalikes: [
      'Flaky salt on top of a focaccia is the best part of it.',
      'Sea salt and table salt weigh differently by the spoon, so always use the scale.',
      'Bread without salt tastes flat, which is why Tuscan bread needs salty food beside it.',
    ],
    question: 'How much seasoning goes into your dough, and when do you put it in?',
    plain: 'How much salt do you put in a loaf?',
  },
  {
    passage:
      'Autolyse: I mix just the flour and water and leave them alone for one hour before the starter goes in. The dough comes out smoother and stretchier.',
    key: 'leave them alone for one hour',
    lookalikes: [
      'Mixing the dough by hand takes about five minutes, and a wet hand stops it from sticking.',
      'Flour and water alone make a paste, not a dough, until the gluten develops.',
      'Leaving a mixed dough alone in a cold kitchen can double the time it needs.',
    ],
    question: 'Do you let the meal and liquid sit together before adding the leaven, and for how long?',
    plain: 'How long do you rest the flour and water before adding the starter?',
  },
  {
    passage:
      'Stretch and folds: during the first two hours of the bulk rise I do four sets of stretch and folds, thirty minutes apart. After that I leave the dough untouched.',
    key: 'four sets of stretch and folds, thirty minutes apart',
    lookalikes: [
      'Coil folds are gentler than stretch and folds for very wet doughs.',
      'A dough that tears when you stretch it needs more rest, not more force.',
      'The bulk rise is the longest step of a sourdough bake, and the one that decides the crumb.',
    ],
    question: 'How many times do you pull and fold the mass early on, and at what intervals?',
    plain: 'How often do you fold the dough while it rises?',
  },
  {
    passage:
      'Bulk fermentation: I end the bulk rise when the dough has grown by about half and the top is domed with a few bubbles. In my kitchen that takes five to six hours.',
    key: 'grown by about half',
    lookalikes: [
      'A dough left to rise for too long collapses and smells boozy.',
      'A clear straight-sided container makes the rise of the dough easy to see.',
      'Bubbles on the sides of the container show the starter is working.',
    ],
    question: 'How do you judge that the first proof is finished?',
    plain: 'How can I tell when the bulk rise is done?',
  },
  {
    passage:
      'Cold retard: after shaping, the loaf spends the night in the fridge, 12 to 16 hours, in a floured banneton. The long cold proof gives a tangier flavour.',
    key: '12 to 16 hours',
    lookalikes: [
      'A banneton needs rice flour dusted into it, because wheat flour glues the dough to the cane.',
      'The fridge door is the warmest part of the fridge and the worst spot for proofing.',
      'A tangier flavour also comes from a starter kept at a stiffer consistency.',
    ],
    question: 'After you form the bread, how long does it chill before baking?',
    plain: 'How long does the shaped loaf stay in the fridge?',
  },
  {
    passage:
      'Oven temperature: I preheat the oven with the Dutch oven inside to 250 °C for 45 minutes. A cold pot gives a pale, flat loaf.',
    key: '250 °C for 45 minutes',
    lookalikes: [
      'An oven thermometer often shows that the dial is off by twenty degrees or more.',
      'A Dutch oven with a glass lid lets you watch the loaf rise, but the glass can crack.',
      'Pale loaves taste of raw flour; bake until the crust is deep brown.',
    ],
    question: 'How hot and for how long do you warm things up before the loaf goes in?',
    plain: 'How long do you preheat the oven, and how hot?',
  },
  {
    passage:
      'Lid on, lid off: the loaf bakes for 20 minutes with the lid on, then 25 minutes with the lid off at 230 °C. The lid traps the steam for the rise.',
    key: '20 minutes with the lid on',
    lookalikes: [
      'The lid of a cast iron pot is heavy and very hot, so use thick oven gloves.',
      'Steam in a home oven can also come from a tray of boiling water on the bottom shelf.',
      'A loaf that rises well in the oven has what bakers call a good oven spring.',
    ],
    question: 'How do you split the bake between covered and uncovered?',
    plain: 'How long do you bake with the lid on and off?',
  },
  {
    passage:
      'Scoring: I make one long cut at a shallow angle, about one centimetre deep, with a razor blade on a stick. That cut is what opens into the ear.',
    key: 'about one centimetre deep',
    lookalikes: [
      'Scoring patterns like wheat stalks look lovely but need a stiff dough.',
      'A razor blade goes dull after a dozen loaves and starts to drag.',
      'The ear is the crisp flap of crust that lifts along the cut.',
    ],
    question: 'How deep and at what slant do you slash the top?',
    plain: 'How deep should I score the loaf?',
  },
  {
    passage:
      'Cooling: I wait at least two hours before cutting into a loaf. The crumb is still setting inside, and a hot loaf turns gummy under the knife.',
    key: 'at least two hours before cutting',
    lookalikes: [
      'A bread knife with a long serrated blade cuts a crusty loaf without crushing it.',
      'Gummy crumb can also mean the loaf was underbaked in the middle.',
      'A wire rack lets the steam escape from the bottom crust as the bread cools.',
    ],
    question: 'How long should I hold off before slicing a fresh bake?',
    plain: 'How long should bread cool before I cut it?',
  },
  {
    passage:
      'Flour: I bake with strong white bread flour of 13 percent protein, with 10 percent wholemeal mixed in for flavour. Plain flour gives a slack dough.',
    key: '13 percent protein',
    lookalikes: [
      'Organic flour is not stronger than ordinary flour; the protein figure on the bag is what counts.',
      'Wholemeal flour goes rancid faster than white flour, so buy small bags.',
      'Italian 00 flour is milled very fine and is made for pizza more than for loaves.',
    ],
    question: 'What kind of meal do you buy, and how strong is it?',
    plain: 'Which flour do you bake with?',
  },
  {
    passage:
      'Water temperature: I use water at about 27 °C so the dough ends up near 25 °C after mixing. Cold water from the tap makes the rise drag on for hours.',
    key: 'water at about 27 °C',
    lookalikes: [
      'Chlorinated tap water rarely harms a healthy starter, despite what forums say.',
      'A probe thermometer is the cheapest tool that improves home baking.',
      'Dough rises twice as fast at 27 °C as at 17 °C.',
    ],
    question: 'How warm should the liquid be when I combine everything?',
    plain: 'What temperature should the water be?',
  },
  {
    passage:
      'Starter readiness: I use the starter when it has doubled in its jar, four to six hours after feeding. A spoonful of it floats in a glass of water at that point.',
    key: 'doubled in its jar, four to six hours after feeding',
    lookalikes: [
      'A rubber band around the jar marks where the starter began after a feed.',
      'A starter that has collapsed back down is past its peak, but it will still raise bread slowly.',
      'A glass of water on the counter helps keep the kitchen air from getting too dry.',
    ],
    question: 'How can I tell my leaven is lively enough to mix into the dough?',
    plain: 'When is my starter ready to use?',
  },
  {
    passage:
      'Amount of starter: I use 100 grams of ripe starter for 500 grams of flour, so 20 percent. In summer I drop to 10 percent so the dough does not overproof.',
    key: '100 grams of ripe starter',
    lookalikes: [
      'Ripe starter is bubbly and loose, while unripe starter is dense and smells of raw flour.',
      'Summer kitchens make every step of sourdough faster.',
      'Overproofed dough spreads into a pancake as soon as it leaves the banneton.',
    ],
    question: 'What share of the recipe is the leaven, and does that change with the season?',
    plain: 'How much starter goes into the dough?',
  },
  {
    passage:
      'Shaping: I pre-shape the dough into a loose round, rest it 20 minutes on the bench, then shape a tight batard. The bench rest relaxes the gluten.',
    key: 'rest it 20 minutes on the bench',
    lookalikes: [
      'A bench scraper is the tool that makes shaping wet dough possible.',
      'Batards fit an oval banneton and boules fit a round one.',
      'Too much flour on the bench stops the dough from gripping and building tension.',
    ],
    question: 'Do you give the dough a pause between the rough round and the final form?',
    plain: 'How do you shape the loaf?',
  },
  {
    passage:
      'Keeping bread: a whole loaf stays fresh for three days cut side down on a wooden board. After that I slice it and freeze the slices for toast.',
    key: 'three days cut side down on a wooden board',
    lookalikes: [
      'Plastic bags keep bread soft but ruin the crust within hours.',
      'Stale sourdough makes the best breadcrumbs and croutons.',
      'A wooden board needs oiling every few months so it does not crack.',
    ],
    question: 'How do you stop a loaf going stale once it has been started?',
    plain: 'How do you keep a loaf fresh?',
  },
  {
    passage:
      'Steam without a pot: when I bake on a stone, I put a tray of ice cubes on the lowest shelf as the loaf goes in. The melting ice gives steam for the first 15 minutes.',
    key: 'a tray of ice cubes on the lowest shelf',
    lookalikes: [
      'A baking stone takes almost an hour to heat through.',
      'The lowest shelf of most ovens is the hottest, which burns the bottom of loaves.',
      'Ice cubes in the dough water keep a summer dough cool while mixing.',
    ],
    question: 'How do you get a moist oven when you are not baking in a covered pot?',
    plain: 'How do I get steam if I bake on a stone?',
  },
  {
    passage:
      'Discard: I never throw my starter discard away. It goes into a jar in the fridge and becomes pancakes or crackers at the weekend.',
    key: 'pancakes or crackers',
    lookalikes: [
      'A starter jar should be cleaned out every few weeks to stop a crust forming on the rim.',
      'Weekend bakes take most of Saturday, from the morning feed to the evening shaping.',
      'Throwing flour down the sink can block the pipes, so scrape bowls into the bin.',
    ],
    question: 'What happens to the leftover culture you remove before a refresh?',
    plain: 'What do you do with starter discard?',
  },
  {
    passage:
      'Baking schedule: I feed the starter at 8 in the morning, mix at noon and shape at 6 in the evening. The loaf bakes straight from the fridge the next morning.',
    key: 'feed the starter at 8 in the morning, mix at noon',
    lookalikes: [
      'The next morning is when a cold-proofed loaf is easiest to score.',
      'A baking timer on your phone keeps you from forgetting the dough.',
      'Evening shaping fits around a working day better than a morning one.',
    ],
    question: 'What does your day look like, hour by hour, when you make a loaf?',
    plain: 'What is your timetable for a bake?',
  },
  {
    passage:
      'Internal temperature: I take the loaf out when a probe in the centre reads 96 °C. Below that the crumb is often still damp.',
    key: 'reads 96 °C',
    lookalikes: [
      'A probe thermometer also tells you the temperature of the dough after mixing.',
      'A damp crumb can come from cutting the loaf too early.',
      'The centre of the oven is where the heat is most even.',
    ],
    question: 'How do you know for sure that the inside is cooked through?',
    plain: 'How do I know the bread is baked inside?',
  },
  {
    passage:
      'Mould: if a starter grows fuzzy pink or orange spots, I throw the whole jar away and start again. Grey liquid on top is only hooch and can be poured off.',
    key: 'fuzzy pink or orange spots',
    lookalikes: [
      'A starter that is only a week old often goes quiet for a few days before it comes back.',
      'Pouring the liquid off a starter makes it milder; stirring it in makes it sourer.',
      'A new starter needs two weeks of daily feeds before it is strong enough for bread.',
    ],
    question: 'When is a culture beyond saving and must be binned?',
    plain: 'When should I throw a starter away?',
  },
  {
    passage:
      'Seeds: I soak 80 grams of mixed seeds in boiling water overnight before adding them to the dough. Dry seeds steal water from the dough and the loaf turns out dry.',
    key: 'soak 80 grams of mixed seeds',
    lookalikes: [
      'Sesame seeds on the crust burn easily in a very hot oven.',
      'Pumpkin seeds and sunflower seeds are the cheapest seeds in bulk.',
      'Boiling water kills a starter, so never pour it into the starter jar.',
    ],
    question: 'How do you prepare the grains and kernels you mix into a loaf?',
    plain: 'How do you add seeds to the dough?',
  },
];

/** The first half: looked at while tuning. */
export const SOURDOUGH_TUNING = SOURDOUGH_FACTS.slice(0, 12);
/** The second half: measured only. */
export const SOURDOUGH_HELD_OUT = SOURDOUGH_FACTS.slice(12);

/** Questions the sourdough material does not answer: never answered with a quote. */
export const SOURDOUGH_UNRELATED = [
  'How do I reset the password of my email account?',
  'What is the best way to learn to swim as an adult?',
  'Which is the longest river in South America?',
  'How often should I water a cactus?',
  'Can you suggest a film for a family evening?',
  'How do I stop my cat scratching the sofa?',
  'What should I pack for a week of camping?',
  'How do I ask my boss for a raise?',
  'Which vaccinations do I need before travelling to Kenya?',
  'How do I clean the filter of my washing machine?',
];
