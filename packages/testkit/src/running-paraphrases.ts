import type { CoffeeFact } from './coffee-paraphrases.ts';

/**
 * A second paraphrase set for issue 37 (running and marathon training), written in full before any
 * tuning of the second ranking stage and the embedded answerer, on another topic than the coffee
 * set: every fact sits among three look-alikes that share its vocabulary, and the fan asks for it
 * in other words. The first half (`RUNNING_TUNING`) may be looked at while tuning; the second half
 * (`RUNNING_HELD_OUT`) is only measured. `RUNNING_UNRELATED` are questions the material does not
 * answer.
 */
export type ParaphraseFact = CoffeeFact;

export const RUNNING_FACTS: ParaphraseFact[] = [
  {
    answer:
      'Easy pace: my easy runs are slow enough that I can speak in full sentences, about 90 seconds per kilometre slower than race pace.',
    lookalikes: [
      'Easy runs make up most of the weekly kilometres in any marathon plan.',
      'Race pace feels comfortable at the start of a marathon and brutal at the end.',
      'A running watch shows your pace per kilometre, but it jumps around under trees.',
    ],
    question: 'How sluggish should my relaxed outings be compared with my goal speed?',
  },
  {
    answer:
      'Long run: the Sunday long run grows by two kilometres a week until it reaches 32 kilometres, three weeks before the race.',
    lookalikes: [
      'Sunday is the day most running clubs meet for their long run.',
      'Some coaches cap the long run at three hours, whatever the distance covered.',
      'The race course has a long climb at kilometre 32 that catches many runners out.',
    ],
    question:
      'By how much do you stretch the weekend distance, and what is the furthest you go before the big day?',
  },
  {
    answer:
      'Tapering: in the last three weeks I cut my weekly volume by a fifth, then a third, then half, but keep a little speed work.',
    lookalikes: [
      'The last weeks before a marathon are when many runners catch a cold.',
      'Speed work means intervals, tempo runs and strides, not racing every run.',
      'Weekly volume is the total of all the kilometres you run in seven days.',
    ],
    question: 'How much should I ease off in the run-up to race day?',
  },
  {
    answer:
      'Carbohydrate loading: for the two days before the marathon I eat about eight grams of carbohydrate per kilo of body weight, mostly rice and pasta.',
    lookalikes: [
      'Pasta parties the night before a marathon are more social than useful.',
      'Body weight goes up by a kilo or two during a marathon build, mostly water.',
      'Rice is easier on the stomach than wholegrain bread for many runners.',
    ],
    question:
      'How much starchy food do you put away in the final forty-eight hours, relative to how heavy you are?',
  },
  {
    answer:
      'Gels during the race: I take one energy gel every 40 minutes from the first half hour, always with a few sips of water.',
    lookalikes: [
      'Energy gels come in many flavours, and caffeine ones give an extra kick.',
      'The water stations on big city marathons are every five kilometres.',
      'Some runners chew sweets instead of gels because the texture makes them gag.',
    ],
    question: 'How often do you refuel with those sugary sachets while you are out on the course?',
  },
  {
    answer:
      'Shoe mileage: I replace my running shoes after about 700 kilometres, when the midsole foam feels flat.',
    lookalikes: [
      'Running shoes with a carbon plate are mostly for races, not daily training.',
      'The midsole is the layer of foam between the outsole and your foot.',
      'I buy running shoes half a size larger because feet swell on long runs.',
    ],
    question: 'When do your trainers go in the bin?',
  },
  {
    answer:
      'Heart rate zones: I keep easy runs below 75 percent of my maximum heart rate, measured with a chest strap rather than the wrist.',
    lookalikes: [
      'Maximum heart rate drops by roughly one beat a year as we age.',
      'A chest strap needs a little water on the sensors to read well at the start.',
      'Heart rate climbs on hot days even when the pace stays the same.',
    ],
    question: 'What pulse ceiling do you stay under on gentle days, and which gadget tracks it?',
  },
  {
    answer:
      'Intervals: on Tuesdays I run six times 800 metres at 5K race pace with 400 metres of jogging between them.',
    lookalikes: [
      'A 5K race is a good test of fitness six weeks into a plan.',
      'Track sessions are more fun with a group than alone.',
      'Jogging between hard efforts keeps the legs loose.',
    ],
    question: 'What does your midweek track workout look like, repetitions and recovery included?',
  },
  {
    answer:
      'Tempo run: once a week I run 20 minutes at a comfortably hard effort, the pace I could hold for about an hour.',
    lookalikes: [
      'Tempo runs are sometimes called threshold runs.',
      'A hard effort on a hilly course feels different from one on the flat.',
      'Once a week I run with my club, which meets at the park gate.',
    ],
    question: 'How long and how fast is your steady, uncomfortable-but-sustainable session?',
  },
  {
    answer:
      'Strength training: twice a week I do 30 minutes of squats, lunges and calf raises, never the day before a hard session.',
    lookalikes: [
      'Squats with a barbell should be learned with a coach first.',
      'Calf raises on a step work the muscles through a bigger range.',
      'A hard session leaves the legs heavy for a day or two.',
    ],
    question: 'Do you lift weights, how often, and which exercises?',
  },
  {
    answer: 'Rest days: I take one full day off running every week, usually Monday, and walk instead.',
    lookalikes: [
      'Walking breaks during a marathon are nothing to be ashamed of.',
      'Monday mornings are when I plan the week of training.',
      'Running every day is possible for experienced runners at low volume.',
    ],
    question: 'Do you ever skip training completely, and when?',
  },
  {
    answer:
      'Weekly mileage: at the peak of a marathon build I run about 70 kilometres a week over five days.',
    lookalikes: [
      'A marathon build usually lasts sixteen to twenty weeks.',
      'Five days of running leaves two for rest or cross-training.',
      'Elite marathoners run well over 150 kilometres a week.',
    ],
    question: 'What is the most distance you cover in seven days when training for 42K?',
  },
  {
    answer:
      'Cadence: I aim for around 175 steps per minute, counting my right foot strikes for 30 seconds now and then.',
    lookalikes: [
      'Overstriding means landing with the foot far in front of the body.',
      'A metronome app can help you run to a steady beat.',
      'Step length grows naturally as you run faster.',
    ],
    question: 'How quickly should my feet turn over?',
  },
  {
    answer:
      'Warm-up: before intervals I jog for ten minutes and do leg swings, high knees and four short strides.',
    lookalikes: [
      'Static stretching before a run does not prevent injuries.',
      'Strides are short accelerations of about 100 metres.',
      'Intervals on a cold morning feel much harder in the first repetition.',
    ],
    question: 'What do you do to get loose before the fast stuff?',
  },
  {
    answer:
      'Hydration: I drink about half a litre of water two hours before a long run and take a soft flask for anything over 90 minutes.',
    lookalikes: [
      'A soft flask folds flat in a pocket once it is empty.',
      'Drinking too much water during a race can be dangerous.',
      'Long runs in summer are best started at sunrise.',
    ],
    question: 'How do you handle fluids for your longer outings?',
  },
  {
    answer:
      'Sleep: during marathon training I aim for eight hours a night and nap for twenty minutes after long runs.',
    lookalikes: [
      'Caffeine late in the day can ruin a night before a race.',
      'Marathon training is tiring, so expect to feel hungry all the time.',
      'Long runs on Saturday night are a bad idea if you work early on Sunday.',
    ],
    question: 'How much shut-eye do you get while preparing for 42 kilometres?',
  },
  {
    answer:
      'Shin splints: when my shins ache I swap two runs a week for cycling and ice the sore spot for ten minutes after each session.',
    lookalikes: [
      'Shin splints are common in runners who increase volume too quickly.',
      'Cycling builds the thighs more than running does.',
      'Ice baths after races are popular but their benefit is debated.',
    ],
    question: 'What do you do when the front of your lower legs hurts?',
  },
  {
    answer:
      'Race morning breakfast: three hours before the start I eat a bagel with honey and a banana, and nothing new.',
    lookalikes: [
      'Bananas are a favourite snack at the finish line.',
      'Race morning nerves make many runners visit the toilet several times.',
      'Honey is mostly sugar, with a few traces of minerals.',
    ],
    question: 'What is on your plate before the gun goes off, and how long before?',
  },
  {
    answer:
      'Pacing strategy: I run the first half of the marathon about ten seconds per kilometre slower than the second half.',
    lookalikes: [
      'The second half of a marathon starts at kilometre 21.1.',
      'Pace groups with balloons run an even pace from start to finish.',
      'Going out too fast is the most common marathon mistake.',
    ],
    question: 'Do you start conservatively and speed up later in the race?',
  },
  {
    answer:
      'Hill repeats: every other Thursday I run eight times 60 seconds up a steep hill and walk back down to recover.',
    lookalikes: [
      'Running downhill fast is hard on the quadriceps.',
      'Thursday is my busiest day at work, so I often run at lunch.',
      'A steep hill makes your heart rate jump within seconds.',
    ],
    question: 'How do you train on slopes, and how many efforts do you do?',
  },
  {
    answer:
      'Foam rolling: each evening I spend five minutes rolling my calves and thighs, slowly, stopping on tender spots.',
    lookalikes: [
      'A foam roller with ridges is firmer than a smooth one.',
      'Tight calves are often blamed for Achilles problems.',
      'Evening runs help some people sleep and keep others awake.',
    ],
    question: 'What self-massage routine do you do at night?',
  },
  {
    answer:
      'Cold weather: below zero I wear a thin merino base layer, gloves and a headband, and start a little underdressed.',
    lookalikes: [
      'Merino wool does not smell as quickly as synthetic fabrics.',
      'Gloves with touchscreen fingertips let you use the phone on the go.',
      'Running on ice calls for shoes with small metal studs.',
    ],
    question: 'How do you dress when it is freezing outside?',
  },
  {
    answer:
      'Recovery after the race: I take a full week without running after a marathon, then two weeks of short easy runs.',
    lookalikes: [
      'A marathon medal is a nice souvenir to hang by the door.',
      'Muscle soreness peaks two days after the race.',
      'Some runners sign up for the next marathon the evening after the last one.',
    ],
    question: 'How long do you take it easy once you have crossed the finish line?',
  },
  {
    answer:
      'Training plan length: I start a specific marathon plan eighteen weeks before race day, after a base of easy running.',
    lookalikes: [
      'Race day comes with its own rules about bib numbers and start pens.',
      'A base period builds the habit of running several times a week.',
      'Online marathon plans are free but do not adapt to you.',
    ],
    question: 'How many weeks ahead do you begin preparing properly for the 26.2-mile event?',
  },
];

/** The first half: looked at while tuning. */
export const RUNNING_TUNING = RUNNING_FACTS.slice(0, 12);
/** The second half: measured only. */
export const RUNNING_HELD_OUT = RUNNING_FACTS.slice(12);

/** Questions the running material does not answer: never answered with a quote. */
export const RUNNING_UNRELATED = [
  'How do I make sourdough bread rise better?',
  'Which camera lens is best for portraits?',
  'Can you help me write a cover letter?',
  'What is the capital of Australia?',
  'How do I repot a monstera without hurting the roots?',
  'Which programming language should I learn first?',
  'Do you have a discount code for your merch?',
  'How do I stop my cat scratching the sofa?',
  'What is your favourite film of all time?',
  'How do I fix a leaking kitchen tap?',
];
