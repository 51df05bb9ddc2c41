/**
 * Sentence templates of the offline realizer for evidence slots, noise rounds and images (the
 * assistant's are in reply-phrases.ts). Variables (`{item}`, `{kwItem}` …) are filled from the
 * plan; `{kwItem}`-style variables always contain the slot's keywords verbatim.
 */
export const SLOT_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  like: [
    'I [really|honestly|genuinely] [love|adore|cannot get enough of] {kwItem}',
    '{kwItem} {is} [basically|definitely|probably] my favourite thing [right now|these days|at the moment], and [this week|yesterday|the weekend] proved it again',
    '{mindTime} I was reminded how much I [enjoy|like|love] {kwItem}',
    'if I could pick anything for {day}, it would be {kwItem}, [no question|every time|hands down]',
    '[fun fact about me|if you are wondering], I am a big fan of {kwItem}',
    'I have always [loved|enjoyed] {kwItem}',
    '{kwItem} never {gets} old for me',
    'nothing beats {kwItem}, [if you ask me|in my book|for me]',
    '[one thing I really enjoy|something I always enjoy|a small joy of mine] is {kwItem}',
  ],
  dislike: [
    'I [honestly|really|just] [cannot stand|am not a fan of|try to avoid] {kwItem}',
    'please never suggest {kwItem} to me for {day}, it is [not my thing|a hard no|just not for me]',
    'whatever we plan for {topic}, please leave out {kwItem}, [it is not my thing|I really dislike it]',
    '{mindTime} I was reminded that I [dislike|do not enjoy|really avoid] {kwItem}',
    '{kwItem} {is} [really|just] not for me',
    'I [always|usually] avoid {kwItem} [if I can|when I can]',
    'I have always disliked {kwItem}',
    'I do not like {kwItem} [at all|one bit|much]',
  ],
  condition: [', but only {when}', ', at least {when}', ' - mostly {when}'],
  // Drift (explicit: the cause is said; implicit: only the new behaviour shows). Each item
  // sits in its own clause so the stance toward it reads unambiguously (src/synth/meaning.ts).
  driftAddLike: [
    '[lately|recently|these days] I have gotten into {kwItem}, because {cause}',
    'new thing for me: I really enjoy {kwItem} now, because {cause}',
    '{cause}, so I started with {kwItem} [recently|this month|a few weeks ago] and I love it',
  ],
  driftAddDislike: [
    '[lately|recently|these days] I cannot stand {kwItem}, because {cause}',
    'new rule for me: I avoid {kwItem} now, because {cause}',
    '{cause}, so now I avoid {kwItem}',
  ],
  driftAddLikeImplicit: [
    '{dayTime} I went for {kwItem} again, I keep coming back to it lately',
    '[funny|odd], I keep picking {kwItem} these days',
  ],
  driftAddDislikeImplicit: [
    '{dayTime} I passed on {kwItem} again, it just does not appeal to me lately',
    'these days I steer clear of {kwItem} whenever it comes up',
  ],
  driftDeleteLike: [
    'I [stopped|gave up on|quit] {kwItem}, because {cause}',
    '{cause}, so {kwItem} {is} no longer part of my life',
  ],
  driftDeleteDislike: [
    '{kwItem} {does} not bother me any more, because {cause}',
    '{cause}, so I no longer mind {kwItem}',
  ],
  driftDeleteLikeImplicit: [
    'I have not had {kwItem} in weeks, it is no longer part of my routine',
    'come to think of it, I am done with {kwItem} - it just stopped appealing',
  ],
  driftDeleteDislikeImplicit: [
    '{kwItem} {does} not bother me any more - {dayTime} it was actually fine',
    'I no longer mind {kwItem}, [funny how that goes|who knew]',
  ],
  driftFromLike: ['I used to [love|be into|enjoy] {prev}', 'I have gone off {prev}'],
  driftFromDislike: ['I used to [avoid|dislike] {prev}', 'I used to steer clear of {prev}'],
  driftToLike: ['these days I really enjoy {kwItem}', 'now I love {kwItem}', 'lately I am into {kwItem}'],
  driftToDislike: ['these days I cannot stand {kwItem}', 'now I avoid {kwItem}', 'lately I dislike {kwItem}'],
  driftModify: [
    '{from}, but {cause}, and {to}',
    '{cause}, so {to} - {from}',
    '{from} - {to}, because {cause}',
  ],
  driftModifyImplicit: ['{from}; {to}', '[funny thing|odd], {from} - {to}'],
  relationship: [
    '{kwPerson} [dropped by|called me|texted me|had dinner with me] {dayTime}',
    'I [spent time|caught up|talked for ages] with {kwPerson} {dayTime}',
    '{kwPerson} [gave me advice|helped me out|made me laugh] {dayTime}',
  ],
  relationshipCloser: [
    '{kwPerson} and I have grown closer lately - {note}',
    'I feel much closer to {kwPerson} these days, since {note}',
  ],
  relationshipApart: [
    '{kwPerson} and I have drifted apart a bit lately - {note}',
    'I do not feel as close to {kwPerson} as before, since {note}',
  ],
  goal_planned: [
    'I [really want|have decided|am determined] to {kwGoal} - I have not started yet, still planning',
    '[one thing I am planning|a plan of mine|something on my list]: I want to {kwGoal}, though I have not begun',
  ],
  goal_in_progress: [
    '[I have started working on it|I am on it now|I got going on it]: I want to {kwGoal}, and it is [in progress|going slowly|coming along]',
    '[progress update|a quick update|news on my plan] - I am in the middle of trying to {kwGoal}',
  ],
  goal_achieved: [
    '[I did it|it worked|I made it] - I managed to {kwGoal}, it is achieved',
    '[big news|good news|guess what]: I finally achieved it, I managed to {kwGoal}',
  ],
  goal_abandoned: [
    '[I have given up on|I gave up on|I have honestly given up on] trying to {kwGoal}; it was not working out',
    '[honest update|a confession|not great news]: I gave up on the plan to {kwGoal}',
  ],
  goal: [
    'I [really want|have decided|am determined] to {kwGoal}',
    'one thing I am working towards: I want to {kwGoal}',
    '{timeRef} I promised myself I would {kwGoal}',
  ],
  statement: [
    '{kwStatement}',
    '[by the way|for the record|just so you know|something about me|a small thing about me|in case it matters], {kwStatement}',
    '{mindTime}, [I realised this again|it struck me again|I was thinking about it again]: {kwStatement}',
  ],
  // A photo turn names the photo and its subject, never what it shows (colours, counts): a
  // visual question about it is answerable only from the image.
  image: [
    'here is a photo I took {photoTime}, with {kwCaption} in it',
    'look at this photo of {kwCaption}',
    '{photoTime} I took a picture of {kwCaption}',
    'I snapped {kwCaption} {photoTime}',
    'sharing a quick shot of {kwCaption}',
    'tell me what you think of this shot of {kwCaption}',
    'I could not resist photographing {kwCaption} {photoTime}',
    'took this shot {photoTime} - {kwCaption}',
  ],
  // The concept's name and what it is ("Pepper, my gift box") end the sentence or are closed by a comma.
  concept: [
    'meet {kwConcept} - a new photo',
    '{kwConcept}, as I found it {photoTime}',
    '{kwConcept} - I took this one {photoTime}',
    '{kwConcept}, one more time - taken {photoTime}',
    '{kwConcept}, snapped {photoTime}',
    '{photoTime} I took a photo of {kwConcept}',
    'here is a new picture of {kwConcept}',
    'I could not resist another picture of {kwConcept}',
    'guess who I photographed {photoTime}? {kwConcept}',
    'I have one more photo for you, of {kwConcept}',
    'say hello to {kwConcept} - I took the picture {photoTime}',
    'I wanted to show you {kwConcept}, photographed {photoTime}',
    'look who I caught on camera {photoTime}: {kwConcept}',
    '{kwConcept}, in a photo I took {photoTime}',
    '{kwConcept} again - I could not help taking this one',
    '{kwConcept}, photographed {photoTime}',
    '{kwConcept}, caught on camera {photoTime}',
    '{kwConcept} - I had to take a picture {photoTime}',
  ],
  imagePlain: [
    'here is a snapshot I took {photoTime}',
    'I took this one {photoTime}',
    'I took this photo {photoTime}',
    'a photo from my phone, {photoTime}',
    'snapped this one {photoTime}',
    'one more photo, taken {photoTime}',
  ],
};

export const NOISE_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  irrelevant: [
    '[totally unrelated|random question|off topic|nothing to do with anything|silly question], but {trivia}?',
    '[quick tangent|random thought|a question for you|here is a weird one]: why do {oddity}? It crossed my mind {mindTime}',
    '[completely different thing|totally off topic|while I think of it|changing the subject] - do you know why {oddity}?',
    '[a question popped into my head|I got curious about something] {mindTime}: {trivia}?',
    '[something silly|a bit random|do not laugh] - {trivia}? Someone asked me {timeRef} and I had no clue',
  ],
  exploratory: [
    '[just browsing, but|no plans yet, but|purely out of curiosity,|not buying anything, but] what do people think of {explore}?',
    '[quick question|I have been wondering|be honest with me|curious]: how do beginners usually start with {explore}?',
    '[I saw an ad for|someone mentioned|I read about|my feed keeps showing me] {explore} {timeRef} - is it any good or just hype?',
  ],
  // The person a gift is for keeps their own pronoun ("my mum … for her").
  on_behalf: [
    '[I need to order|I have to get|I am looking for] {gift} for my [mum|grandmother|niece]; it is not for me, it is for her [birthday|new flat|anniversary]',
    '[I need to order|I have to get|I am looking for] {gift} for my [dad|grandfather|nephew]; it is not for me, it is for his [birthday|new flat|anniversary]',
    '[I need to order|I have to get|I am looking for] {gift} for my [cousin|neighbour|best friend|flatmate]; it is not for me, it is for their [birthday|new flat|anniversary]',
    'my [mum|grandmother|niece] asked me to find {gift} for her {dayRef}',
    'my [dad|grandfather|nephew] asked me to find {gift} for him {dayRef}',
    'my [cousin|neighbour|best friend|flatmate] asked me to find {gift} for them {dayRef}',
    '[can you help me pick|could you suggest|help me choose] {gift} for my [mum|grandmother|niece] - not for me, for her?',
    '[can you help me pick|could you suggest|help me choose] {gift} for my [dad|grandfather|nephew] - not for me, for him?',
  ],
  impulse: [
    '[I suddenly want|all of a sudden I want|I have a sudden urge for|for some reason I want] {impulse} {timeRef}, probably just a passing craving',
    '[out of nowhere|no idea why, but|randomly,] I feel like getting {impulse}, it will pass',
    '[weird urge|strange craving|silly idea] {timeRef}: {impulse} - [ignore me|do not take it seriously|it will pass]',
  ],
  // A misstatement says one practical detail wrong; its correction puts only that detail right.
  misstatement: [
    '[quick practical thing|a small admin thing|for your notes]: please note {slipDetail} as {slipWrong}',
    '[before I forget|while I remember|oh, and], {slipDetail} is {slipWrong}, keep that in mind {dayRef}',
    'one errand {timeRef}: put {slipDetail} down as {slipWrong}',
  ],
  correction: [
    '[wait, scratch that|hang on, my mistake|oops, wrong info] - {slipDetail} is {slipRight}, not {slipWrong}, I misspoke',
    '[correction|let me fix something|small fix]: I said {slipWrong} for {slipDetail}, I meant {slipRight}',
    '[sorry, I mixed it up|my bad|I got that wrong]: {slipDetail} should be {slipRight}, not {slipWrong}',
  ],
};

export const NOISE_BANKS: Readonly<Record<string, readonly string[]>> = {
  trivia: [
    'how long does light take to reach the moon',
    'which river is the longest in the world',
    'how many bones does a cat have',
    'how many steps does the Eiffel Tower have',
    'how do penguins sleep standing up',
    'how many languages are spoken in India',
    'how long does a jellyfish live',
    'which planets have rings',
    'why is the sky blue',
    'how deep is the ocean at its deepest',
    'how fast can a cheetah run',
    'how many hearts does an octopus have',
    'why do leaves change colour in autumn',
    'how old is the oldest tree on Earth',
    'how many moons does Jupiter have',
    'what makes thunder so loud',
  ],
  oddity: [
    'cats knock things off tables',
    'people clap when planes land',
    'pigeons bob their heads',
    'onions make us cry',
    'escalators have brushes on the sides',
    'socks vanish in the wash',
    'dogs tilt their heads',
    'we yawn when others yawn',
    'cold water tastes better than warm',
    'fingers wrinkle in the bath',
    'popcorn pops',
    'the moon looks bigger near the horizon',
    'some people sneeze in bright light',
    'bread goes stale faster in the fridge',
    'ice cubes go cloudy',
    'music gets stuck in our heads',
  ],
  explore: [
    'pottery classes',
    'a rowing machine',
    'sourdough baking',
    'a smart watch',
    'salsa lessons',
    'a camping stove',
    'indoor climbing',
    'a tabletop role-playing game',
    'an e-reader',
    'kite surfing',
    'watercolour sets',
  ],
  gift: [
    'a birthday present',
    'a scarf',
    'a cookbook',
    'concert tickets',
    'a plant',
    'a board game',
    'a phone case',
  ],
  relative: ['mum', 'dad', 'cousin', 'neighbour', 'grandmother', 'best friend', 'flatmate', 'niece'],
  impulse: [
    'a giant bubble tea',
    'a new pair of sneakers',
    'a weekend in Paris',
    'a neon sign for my room',
    'a puppy',
    'fried chicken at midnight',
    'a drum kit',
    'a tattoo',
    'a karaoke machine',
  ],
};
