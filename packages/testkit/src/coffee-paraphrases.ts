/**
 * A paraphrase set on one topic (home coffee brewing), written for issue 37 before any tuning and
 * kept apart from the repo's other sets (lookalikes.ts, packages/knowledge/quality/paraphrase-set.ts):
 * every fact sits in one passage among three look-alikes that share its vocabulary, and the fan asks
 * for it in other words. The first half (`COFFEE_TUNING`) may be looked at while tuning; the second
 * half (`COFFEE_HELD_OUT`) is only measured. `COFFEE_UNRELATED` are questions the material does not
 * answer: the embedded answerer must say so instead of quoting something.
 */
export interface CoffeeFact {
  /** The sentence that answers. */
  answer: string;
  /** Sentences on the same subject, with its words, that do not answer it. */
  lookalikes: [string, string, string];
  /** What a fan asks, in other words than the answer's. */
  question: string;
}

export const COFFEE_FACTS: CoffeeFact[] = [
  {
    answer:
      'Descaling: I run a citric acid solution through the espresso machine every two months, because our tap water is hard.',
    lookalikes: [
      'Cleaning the espresso machine: I wipe the steam wand with a damp cloth after every latte.',
      'Espresso machine maintenance also means swapping the group gasket once it turns stiff.',
      'Backflushing the espresso machine with a blind basket keeps the group head free of old coffee oils.',
    ],
    question: 'How often do you get rid of the limescale build-up inside your coffee maker?',
  },
  {
    answer:
      'Dose: I put 18 grams of ground coffee in a double basket and pull 36 grams of espresso out of it.',
    lookalikes: [
      'A double basket holds more ground coffee than a single basket and gives a thicker crema.',
      'Weigh your espresso on a scale under the cup; eyeballing the volume in the cup is unreliable.',
      'Ground coffee goes stale within minutes, so I grind right before I pull the espresso.',
    ],
    question:
      'How much powder do you load into the portafilter for a shot, and how heavy is the drink that comes out?',
  },
  {
    answer:
      'Shot time: a good espresso runs for 25 to 30 seconds from the moment I press the button to the last drop.',
    lookalikes: [
      'Espresso that tastes sour usually means the beans are too fresh or too lightly roasted.',
      'I press the button on the machine only after the portafilter is locked in and the cup is in place.',
      'A good espresso has a hazelnut-coloured crema that lasts for a minute or two.',
    ],
    question: 'How many seconds should the extraction last?',
  },
  {
    answer:
      'Water temperature for pour-over: I boil the kettle and let it rest for thirty seconds, so the water is around 94 °C when it hits the coffee.',
    lookalikes: [
      'Pour-over coffee needs a gooseneck kettle so you can pour slowly in circles.',
      'For pour-over I use filtered water; chlorine from the tap makes the coffee taste flat.',
      'A pour-over brew takes me about three and a half minutes including the bloom.',
    ],
    question: 'How hot should the liquid be when I make a filter cup by hand?',
  },
  {
    answer:
      'Bean storage: keep your coffee beans in an airtight opaque canister at room temperature, never in the fridge.',
    lookalikes: [
      'Coffee beans from a local roaster taste better than supermarket beans with no roast date.',
      'I buy coffee beans in 250-gram bags so I finish each bag in about two weeks.',
      'Whole coffee beans keep their aroma longer than pre-ground coffee.',
    ],
    question: 'Where should I put my bag of whole coffee once I have opened it?',
  },
  {
    answer:
      'Resting after roasting: I wait seven to ten days after the roast date before I brew espresso with new beans, so the gas can escape.',
    lookalikes: [
      'The roast date printed on the bag tells you more than a best-before date ever will.',
      'Light roasts are fruity and bright, dark roasts taste of chocolate and smoke.',
      'I roast my own beans in a popcorn machine once a month for fun.',
    ],
    question:
      'Fresh beans from the roaster taste weird in my shots. How long should they sit before I use them?',
  },
  {
    answer:
      'Milk: I steam milk to about 60 °C, when the jug becomes too hot to hold comfortably, and never let it boil.',
    lookalikes: [
      'Oat milk from the barista range foams better than regular oat milk for a latte.',
      'Keep the steam wand tip just under the surface of the milk to stretch it into microfoam.',
      'A cold stainless steel jug gives you more time to texture the milk before it gets too hot.',
    ],
    question: 'At what point do I stop heating the dairy for a cappuccino so it does not scald?',
  },
  {
    answer:
      'Cold brew ratio: one part coarsely ground coffee to eight parts cold water, steeped in the fridge for eighteen hours.',
    lookalikes: [
      'Cold brew is less acidic than hot coffee, which is why people with sensitive stomachs like it.',
      'I serve cold brew over ice with a splash of milk in the summer.',
      'Cold brew concentrate keeps for a week in a closed bottle in the fridge.',
    ],
    question:
      'For the iced version you leave overnight, how much ground stuff per litre of liquid, and for how long?',
  },
  {
    answer:
      'Grinder cleaning: once a month I run a capful of rice-based cleaning tablets through my burr grinder and brush out the chute.',
    lookalikes: [
      'A burr grinder gives a far more even grind than a blade grinder.',
      'My grinder is a flat burr grinder with stepless adjustment for espresso and filter.',
      'Single dosing means weighing the beans for each cup instead of filling the grinder hopper.',
    ],
    question: 'How do you stop old oils from building up in the machine that mills your beans?',
  },
  {
    answer: 'Caffeine: I stop drinking coffee after 2 pm, otherwise I lie awake at night.',
    lookalikes: [
      'A double espresso has less caffeine than a large mug of filter coffee.',
      'Coffee in the morning before breakfast makes some people jittery.',
      'Robusta beans have almost twice the caffeine of arabica beans.',
    ],
    question: 'Is there a time of day after which you avoid your daily cup so you can still sleep?',
  },
  {
    answer:
      'Water for the espresso machine: I fill the tank with bottled water that has a hardness of about 70 ppm, soft enough to spare the boiler.',
    lookalikes: [
      'Refill the water tank of the espresso machine every morning so the water is fresh.',
      'The water tank of my espresso machine holds two litres, which lasts about three days.',
      'Water makes up more than 98 percent of a cup of coffee, so its taste matters.',
    ],
    question: 'What kind of H2O goes into your reservoir, and how mineral-heavy is it?',
  },
  {
    answer:
      'Bloom: I pour twice the coffee weight in water first, about 40 grams, and wait 45 seconds before the main pour.',
    lookalikes: [
      'Fresh coffee bubbles a lot when hot water first touches it.',
      'My main pour goes in three slow spirals, finishing at 300 grams of water.',
      'The paper filter should be rinsed with hot water before the coffee goes in.',
    ],
    question: 'In the first step of a V60, how much do you wet the grounds and how long do you pause?',
  },
  {
    answer:
      'Grind for French press: as coarse as sea salt; finer grounds slip through the mesh and make the cup muddy.',
    lookalikes: [
      'A French press makes a heavy-bodied coffee because the metal mesh lets the oils through.',
      'Let the French press steep for four minutes, then press the plunger slowly.',
      'Clean the French press mesh with a drop of dish soap every few days.',
    ],
    question: 'How chunky should the particles be for a plunger pot?',
  },
  {
    answer: 'My grinder: a Niche Zero, which I bought second-hand for 450 euros three years ago.',
    lookalikes: [
      'A good grinder matters more than an expensive espresso machine.',
      'Hand grinders are cheap and quiet but tiring for espresso every morning.',
      'My first grinder was a cheap blade grinder that turned beans into dust and boulders.',
    ],
    question: 'Which model do you use to mill beans at home, and what did it cost you?',
  },
  {
    answer: 'Sour espresso fix: grind finer so the shot runs slower and extracts more sweetness.',
    lookalikes: [
      'Sour and bitter are different: sour is sharp like lemon, bitter is harsh like burnt toast.',
      'A bitter espresso usually ran too long or came out too hot.',
      'Some light-roast espresso is supposed to taste bright and fruity, not sour.',
    ],
    question: 'My shots taste sharp and acidic like lemon juice; what should I change?',
  },
  {
    answer:
      'Aeropress recipe: 15 grams of medium-fine coffee, 220 grams of water at 85 °C, inverted, pressed after two minutes.',
    lookalikes: [
      'The Aeropress is light and unbreakable, which makes it my favourite travel brewer.',
      'Aeropress paper filters can be rinsed and reused a few times.',
      'Some people use a metal filter in the Aeropress for a fuller cup.',
    ],
    question: 'What are your exact quantities and steps with that plastic syringe-style brewer?',
  },
  // Held out: measured, never looked at while tuning.
  {
    answer:
      'Tamping: I press level with about 15 kilograms of force, just until the bed stops giving, and never twist.',
    lookalikes: [
      'A calibrated tamper clicks when you have pressed hard enough.',
      'Distribute the coffee in the basket with a needle tool before tamping to break up clumps.',
      'My tamper is 58.5 millimetres, a snug fit for a 58 millimetre basket.',
    ],
    question: 'How hard do you push down on the puck before locking in?',
  },
  {
    answer:
      'Decaf: I drink Swiss Water Process decaf in the evening; it is decaffeinated without chemical solvents.',
    lookalikes: [
      'Decaf beans roast darker and faster than regular beans.',
      'Good decaf tastes almost the same as regular coffee in a latte.',
      'Decaf still contains a little caffeine, a few milligrams a cup.',
    ],
    question: 'Which caffeine-free option do you have at night, and how is it made?',
  },
  {
    answer:
      'Brew ratio for filter: 60 grams of coffee per litre of water, so a 15-gram dose for a 250-gram cup.',
    lookalikes: [
      'Filter coffee tastes cleaner than espresso because the paper holds back oils.',
      'A litre of filter coffee in a thermos stays drinkable for about two hours.',
      'Batch brewers make filter coffee for the whole office at once.',
    ],
    question: 'How much of the ground stuff do I need per mug when I use a drip brewer?',
  },
  {
    answer:
      'Pre-infusion: my machine soaks the puck at low pressure for eight seconds before full pressure, which cuts channeling.',
    lookalikes: [
      'Nine bar of pressure is the classic number for espresso.',
      'Channeling shows up as spurts and blond streaks in a bottomless portafilter.',
      'Lever machines let you control pressure by hand throughout the shot.',
    ],
    question: 'Does your espresso maker wet the grounds gently first, and for how long?',
  },
  {
    answer:
      'Moka pot: fill the base with already hot water up to the valve, so the coffee does not cook on the stove and turn metallic.',
    lookalikes: [
      'The moka pot is a classic Italian stovetop brewer found in almost every kitchen in Italy.',
      'Never tamp the coffee in a moka pot funnel, just level it.',
      'Moka pot coffee is strong but it is not really espresso.',
    ],
    question: 'My stovetop brewer makes a cup that tastes of tin. What am I doing wrong?',
  },
  {
    answer:
      'Latte art: I started with hearts and practised with water and a drop of dish soap instead of wasting milk.',
    lookalikes: [
      'Latte art needs silky microfoam with no big bubbles.',
      'A rosetta is harder than a heart because you wiggle the pitcher while pouring.',
      'Latte art looks best on a double espresso with thick crema.',
    ],
    question: 'How did you train to pour pictures into the cup without throwing away dairy?',
  },
  {
    answer:
      'Budget setup: for a first espresso corner, spend about 300 euros on the grinder and 200 euros on the machine.',
    lookalikes: [
      'Espresso machines with a dual boiler cost well over a thousand euros.',
      'A first espresso corner needs a scale, a tamper and a milk jug as well.',
      'Second-hand espresso machines can be a bargain if they were descaled regularly.',
    ],
    question:
      'I am starting out with little money; how should I split it between the two main pieces of kit?',
  },
  {
    answer:
      'Travel: on trips I pack a hand grinder and an Aeropress, and I buy beans from a local roaster wherever I am.',
    lookalikes: [
      'Hotel room coffee is usually stale pods or instant sachets.',
      'Airport coffee is expensive and rarely good.',
      'A hand grinder takes about a minute to grind a cup by hand.',
    ],
    question: 'What brewing gear comes with you when you go on holiday?',
  },
  {
    answer:
      'Iced latte: pull a double shot straight over a glass of ice, then top up with cold milk; never pour hot milk over ice.',
    lookalikes: [
      'An iced latte is my summer drink once the weather turns hot.',
      'Ice cubes made from coffee do not water the drink down.',
      'A latte has more milk and less foam than a cappuccino.',
    ],
    question: 'How do you put together a chilled milky coffee drink?',
  },
  {
    answer:
      "Gasket: the rubber seal in my group head gets replaced every twelve months, or sooner once the portafilter swings past six o'clock.",
    lookalikes: [
      'The group head shower screen should be scrubbed weekly with a brush.',
      'A portafilter handle made of wood looks nice and stays cool.',
      'Rubber feet under the espresso machine stop it from sliding on the counter.',
    ],
    question: 'When does the seal around the brew head need swapping?',
  },
  {
    answer:
      'Chemex: I use a medium-coarse grind and 50 grams of coffee for 800 grams of water to serve four people.',
    lookalikes: [
      'The Chemex glass carafe is beautiful enough to stay on the table.',
      'Chemex filters are thicker than other paper filters and make a very clean cup.',
      'The wooden collar of the Chemex is tied with a leather string.',
    ],
    question: 'How do you make enough with the hourglass carafe when friends come over?',
  },
  {
    answer:
      'Crema: thick, lasting crema comes from beans roasted within the last month; stale beans give a thin, pale layer.',
    lookalikes: [
      'Crema is the golden foam on top of an espresso shot.',
      'Some people scoop off the crema because it tastes bitter.',
      'Pressurised baskets fake crema by forcing coffee through a tiny hole.',
    ],
    question: 'Why does the foamy layer on top of my shot disappear so fast?',
  },
  {
    answer:
      'Weighing: I use a 0.1-gram scale with a built-in timer and weigh both the beans going in and the drink coming out.',
    lookalikes: [
      'A kitchen scale for baking is too slow and too coarse for coffee.',
      'Timers on phones are fine for pour-over but awkward for espresso.',
      'Some espresso machines have a scale in the drip tray.',
    ],
    question: 'How precise is the device you measure your doses with?',
  },
  {
    answer:
      'Cupping: once a week I taste three coffees side by side, slurping each from a spoon to compare sweetness and body.',
    lookalikes: [
      'Professional tasters spit the coffee into a cup after tasting.',
      'A flavour wheel helps you put names on what you taste in coffee.',
      'Sweetness in coffee comes from sugars that caramelise during roasting.',
    ],
    question: 'How do you train your palate to tell beans apart?',
  },
  {
    answer:
      'Flat white: a double ristretto with 120 millilitres of thinly textured milk, served in a small ceramic cup.',
    lookalikes: [
      'The flat white was invented in Australia or New Zealand, depending on who you ask.',
      'A ristretto uses the same dose of coffee with half the water.',
      'A ceramic cup keeps coffee warm longer than a glass.',
    ],
    question: 'What goes into the Antipodean milk drink you make, and in what amounts?',
  },
  {
    answer:
      'Old beans: coffee past six weeks from roasting goes into cold brew or my compost instead of the espresso machine.',
    lookalikes: [
      'Used coffee grounds are good for the garden and for scrubbing pans.',
      'Freezing beans in portions is an option if you buy in bulk.',
      'Coffee bought in bulk is cheaper per kilo but goes stale.',
    ],
    question: 'What do you do with a bag that has been sitting around too long?',
  },
];

/** The first half: looked at while tuning. */
export const COFFEE_TUNING = COFFEE_FACTS.slice(0, 16);
/** The second half: measured only. */
export const COFFEE_HELD_OUT = COFFEE_FACTS.slice(16);

/** Questions the coffee material does not answer: never answered with a quote. */
export const COFFEE_UNRELATED = [
  'Which football team do you support?',
  'How do I renew my passport before a trip abroad?',
  'Can you recommend running shoes for flat feet?',
  'What is the best way to learn the guitar as an adult?',
  'How many push-ups should I do every morning?',
  'Do you have tips for potty training a puppy?',
  'What time does your livestream start on Fridays?',
  'How do I file my taxes as a freelancer?',
  'Which laptop should I buy for video editing?',
  'How do I get my toddler to sleep through the night?',
];

/**
 * A long web page of the coffee material, as ingestion reads one (its title, then paragraphs): an
 * introduction and a section per fact, where the answer sits in the middle of the section among its
 * look-alikes and look-alikes of other facts, as a creator's long page mixes many subjects.
 */
export function coffeePage(
  facts: CoffeeFact[],
  others: CoffeeFact[],
  title: string,
  intro = 'People ask me about coffee every day, so here is everything I do at home, from the beans to the cup. Pour yourself one and read on.',
): string {
  const sections = facts.map((f, i) => {
    const other = others[(i * 7 + 3) % others.length]!;
    const heading = f.answer.split(':')[0] ?? title;
    return [
      heading,
      `${f.lookalikes[0]} ${other.lookalikes[1]}`,
      `${f.lookalikes[1]} ${f.answer} ${other.lookalikes[2]}`,
      `${f.lookalikes[2]} ${other.lookalikes[0]}`,
    ].join('\n\n');
  });
  return [
    title,
    intro,
    ...sections,
    'That is all for now. Questions? Ask in the chat and I will get back to you.',
  ].join('\n\n');
}
