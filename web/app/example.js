// example.js: the example conversation of the agent-memory view, written for
// this page (no data set's text): two friends, Maya and Tom, over six chats
// from March to June 2024. It has the shape of a LoCoMo file (one sample
// with sessions, dates, turns and questions), so the page reads it with the
// same parser as an imported file. Its questions need turns from several
// chats, some of them dated only relative to their chat ("last weekend").

export const EXAMPLE_NAME = 'example';

const chat = (n, date, turns) => ({ n, date, turns });

const chats = [
  chat(1, '6:40 pm on 2 March, 2024', [
    ['Maya', 'Guess what, Tom: last weekend I adopted a rescue dog! She is a scruffy terrier called Pepper.'],
    ['Tom', 'No way! Congratulations. How is she settling in?'],
    ['Maya', 'She sleeps on my feet and barks at the kettle. I already love her.'],
    ['Tom', 'My news is smaller: my sister Lena talked me into sailing lessons. She lives up in Kiel and sails every summer.'],
    ['Maya', 'Sailing in March sounds freezing.'],
    ['Tom', 'It is. The first lesson is on the lake here, in a borrowed wetsuit.'],
  ]),
  chat(2, '8:15 pm on 16 March, 2024', [
    ['Tom', 'How are you and Pepper?'],
    ['Maya', 'Good! And I finally started the pottery class at the community centre, Tuesday evenings.'],
    ['Tom', 'What did you make?'],
    ['Maya', 'A very wobbly vase with a green glaze. I am weirdly proud of it.'],
    ['Tom', 'I went sailing yesterday and capsized twice. The instructor says that is how you learn.'],
    ['Maya', 'Ha! Was the water as cold as you feared?'],
    ['Tom', 'Colder. Lena laughed for five minutes on the phone.'],
  ]),
  chat(3, '11:02 am on 6 April, 2024', [
    ['Maya', 'Disaster: Pepper knocked my green vase off the shelf and chewed the pieces. She is fine, the vase is not.'],
    ['Tom', 'Oh no. Will you make another one?'],
    ['Maya', 'Yes, but the class moved to Thursdays because the studio is being renovated, so I lost a week.'],
    ['Tom', 'I have news too: I quit the office job. I start at a bicycle repair shop next month.'],
    ['Maya', 'That suits you so much better. You fix everyone\'s bikes anyway.'],
  ]),
  chat(4, '7:30 pm on 27 April, 2024', [
    ['Maya', 'Two weekends ago I took Pepper hiking in the hills above the river. She chased every sheep she saw.'],
    ['Tom', 'Did you keep her on the lead?'],
    ['Maya', 'After the second sheep, yes. I am also planning a trip to Lisbon in June to see my cousin Inês.'],
    ['Tom', 'Lisbon in June is lovely. Who looks after Pepper?'],
    ['Maya', 'My neighbour Sam offered. Pepper adores him because he carries biscuits.'],
  ]),
  chat(5, '9:05 pm on 18 May, 2024', [
    ['Tom', 'First two weeks at the bike shop done. I rebuilt a 1970s racing bike today.'],
    ['Maya', 'You sound happy. Better than the office?'],
    ['Tom', 'Much. And Lena is coming down from Kiel next weekend to sail the lake with me.'],
    ['Maya', 'I booked my flights to Lisbon. Thursday pottery will have to wait for two weeks.'],
    ['Tom', 'Bring me back a custard tart.'],
  ]),
  chat(6, '5:45 pm on 8 June, 2024', [
    ['Maya', 'I am back from Lisbon! Inês took me to the tile museum, and I ate far too many custard tarts.'],
    ['Tom', 'Did you bring me one?'],
    ['Maya', 'It did not survive the flight, sorry. Pepper was spoiled rotten by Sam.'],
    ['Tom', 'Lena and I entered the lake regatta next Saturday. I promise not to capsize.'],
    ['Maya', 'Pepper and I will cheer from the shore.'],
  ]),
];

/** The example as a LoCoMo sample (an array of one), for parseDialogFile. */
export function exampleConversation() {
  const conversation = { speaker_a: 'Maya', speaker_b: 'Tom' };
  for (const c of chats) {
    conversation[`session_${c.n}_date_time`] = c.date;
    conversation[`session_${c.n}`] = c.turns.map(([speaker, text], i) => ({ speaker, dia_id: `D${c.n}:${i + 1}`, text }));
  }
  return [{
    sample_id: EXAMPLE_NAME,
    conversation,
    qa: [
      { question: 'Which day is Maya\'s pottery class now?', answer: 'Thursday', evidence: ['D2:2', 'D3:3'] },
      { question: 'What happened to the vase Maya made?', answer: 'Pepper knocked it off a shelf and chewed it', evidence: ['D2:4', 'D3:1'] },
      { question: 'What has Maya done with Pepper?', answer: 'adopted her, went hiking in the hills', evidence: ['D1:1', 'D4:1'] },
      { question: 'Where does Tom\'s sister live?', answer: 'Kiel', evidence: ['D1:4', 'D5:3'] },
      { question: 'When did Maya adopt Pepper?', answer: 'the weekend of 24 February 2024', evidence: ['D1:1'] },
      { question: 'Where does Tom work now?', answer: 'a bicycle repair shop', evidence: ['D3:4', 'D5:1'] },
    ],
  }];
}
