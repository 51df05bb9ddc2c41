/**
 * Sentence templates of the offline realizer for evidence slots, noise rounds, images and the
 * assistant's personalized references. Variables (`{item}`, `{kwItem}` …) are filled from the
 * plan; `{kwItem}`-style variables always contain the slot's keywords verbatim.
 */
export const SLOT_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  like: [
    'I [really|honestly|genuinely] [love|adore|cannot get enough of] {kwItem}',
    '{kwItem} is [basically|definitely|probably] my favourite thing [right now|these days|at the moment], and {timeRef} proved it again',
    '{timeRef} I was reminded how much I [enjoy|like|love] {kwItem}',
    'if I could pick anything for {day}, it would be {kwItem}, [no question|every time|hands down]',
    'you should know I am a big fan of {kwItem} - it came up again {timeRef}',
    'talking about {topic} reminds me how much I [like|love|enjoy] {kwItem}',
  ],
  dislike: [
    'I [honestly|really|just] [cannot stand|am not a fan of|try to avoid] {kwItem}',
    'please never suggest {kwItem} to me for {day}, it is [not my thing|a hard no|just not for me]',
    'whatever we plan for {topic}, no {kwItem} please, [it is not my thing|I really dislike it]',
    '{timeRef} I was reminded that I [dislike|do not enjoy|really avoid] {kwItem}',
  ],
  condition: [', but only {when}', ', at least {when}', ' - mostly {when}'],
  // Drift (explicit: the cause is said; implicit: only the new behaviour shows). Each item
  // sits in its own clause so the stance toward it reads unambiguously (src/synth/meaning.ts).
  driftAddLike: [
    '[lately|recently|these days] I have gotten into {kwItem}, because {cause}',
    'new thing for me: I really enjoy {kwItem} now, because {cause}',
    '{cause}, so I started with {kwItem} {timeRef} and I love it',
  ],
  driftAddDislike: [
    '[lately|recently|these days] I cannot stand {kwItem}, because {cause}',
    'new rule for me: no {kwItem}, because {cause}',
    '{cause}, so now I avoid {kwItem}',
  ],
  driftAddLikeImplicit: [
    '{timeRef} I went for {kwItem} again, I keep coming back to it lately',
    '[funny|odd], I keep picking {kwItem} these days',
  ],
  driftAddDislikeImplicit: [
    '{timeRef} I passed on {kwItem} again, it just does not appeal to me lately',
    'these days I steer clear of {kwItem} whenever it comes up',
  ],
  driftDeleteLike: [
    'I [stopped|gave up on|quit] {kwItem}, because {cause}',
    '{cause}, so {kwItem} is no longer part of my life',
  ],
  driftDeleteDislike: [
    '{kwItem} does not bother me any more, because {cause}',
    '{cause}, so I no longer mind {kwItem}',
  ],
  driftDeleteLikeImplicit: [
    'I have not had {kwItem} in weeks, it is no longer part of my routine',
    'come to think of it, I am done with {kwItem} - it just stopped appealing',
  ],
  driftDeleteDislikeImplicit: [
    '{kwItem} does not bother me any more, {timeRef} it was actually fine',
    'I no longer mind {kwItem}, [funny how that goes|who knew]',
  ],
  driftFromLike: ['I used to [love|be into|enjoy] {prev}', 'I am done with {prev} these days'],
  driftFromDislike: ['I used to [avoid|dislike] {prev}', 'I used to steer clear of {prev}'],
  driftToLike: ['these days I really enjoy {kwItem}', 'now I love {kwItem}', 'lately I am into {kwItem}'],
  driftToDislike: ['these days I cannot stand {kwItem}', 'now I avoid {kwItem}', 'lately I dislike {kwItem}'],
  driftModify: ['{from}, but {cause}, and {to}', '{cause}, so {to} - {from}'],
  driftModifyImplicit: ['{from}; {to}', '[funny thing|odd], {from} - {to}'],
  relationship: [
    '{kwPerson} [dropped by|called me|texted me|had dinner with me] {timeRef}',
    'I [spent time|caught up|talked for ages] with {kwPerson} {timeRef}',
    '{kwPerson} [gave me advice|helped me out|made me laugh] {timeRef}',
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
    'one thing I am planning: I want to {kwGoal}, though I have not begun',
  ],
  goal_in_progress: [
    'I have started working on it: I want to {kwGoal}, and it is [in progress|going slowly|coming along]',
    'progress update - I am in the middle of trying to {kwGoal}',
  ],
  goal_achieved: [
    'I did it - I managed to {kwGoal}, it is achieved',
    'big news: I finally achieved it, I managed to {kwGoal}',
  ],
  goal_abandoned: [
    'I have given up on trying to {kwGoal}; it was not working out',
    'honest update: I gave up on the plan to {kwGoal}',
  ],
  goal: [
    'I [really want|have decided|am determined] to {kwGoal}',
    'one thing I am working towards: I want to {kwGoal}',
    '{timeRef} I promised myself I would {kwGoal}',
  ],
  statement: [
    '{kwStatement}',
    '[by the way|for the record|just so you know], {kwStatement}',
    '{timeRef}, I realised this again: {kwStatement}',
  ],
  // A photo turn names the photo and its subject, never what it shows (colours, counts): a
  // visual question about it is answerable only from the image.
  image: [
    'here is a photo I took {timeRef}, with {kwCaption} in it',
    'look at this, with {kwCaption} in it',
    'sharing a picture from {timeRef} - {kwCaption} again',
  ],
  concept: [
    'meet {kwConcept} - a new photo',
    'this is {kwConcept} {timeRef}, in a photo I took',
    'a new picture of {kwConcept}',
  ],
  imagePlain: ['here is a snapshot from {timeRef}', 'I took this {timeRef}', 'this photo is from {timeRef}'],
};

export const NOISE_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  irrelevant: [
    '[totally unrelated|random question|off topic], but how [long|far|many] {trivia}?',
    'quick tangent: why do {oddity}? it crossed my mind {timeRef}',
    'completely different thing - is it true that {oddity} in {place}s?',
  ],
  exploratory: [
    'just browsing, but what is {explore} like, without committing to anything {dayRef}?',
    'quick question, how do people get into {explore} when they start {dayRef}?',
    'I saw an ad for {explore} {timeRef}; is it any good or just hype?',
  ],
  on_behalf: [
    'I need to order {gift} for my {relative}; it is not for me, they are into {explore}',
    'my {relative} asked me to find {gift} for them {dayRef}',
    'can you help me pick {gift} for my {relative} {dayRef} - not for me, for them?',
  ],
  impulse: [
    'I suddenly want {impulse} {timeRef}, probably just a passing craving',
    'out of nowhere I feel like getting {impulse}, it will pass',
    'weird urge {timeRef}: {impulse}, [ignore me|do not take it seriously|it will pass] if it sounds silly',
  ],
  // A misstatement says one practical detail wrong; its correction puts only that detail right.
  misstatement: [
    'quick practical thing: please note {slipDetail} as {slipWrong}',
    'before I forget, {slipDetail} is {slipWrong}, keep that in mind {dayRef}',
    'one errand {timeRef}: put {slipDetail} down as {slipWrong}',
  ],
  correction: [
    'wait, scratch that - {slipDetail} is {slipRight}, not {slipWrong}, I misspoke',
    'correction: I said {slipWrong} for {slipDetail}, I meant {slipRight}',
    'sorry, I mixed it up: {slipDetail} should be {slipRight}, not {slipWrong}',
  ],
};

export const NOISE_BANKS: Readonly<Record<string, readonly string[]>> = {
  trivia: [
    'does it take light to reach the moon',
    'is the longest river',
    'bones are in a cat',
    'stairs does the Eiffel Tower have',
    'do penguins sleep',
    'languages are spoken in India',
    'does a jellyfish live',
    'planets have rings',
  ],
  oddity: [
    'cats knock things off tables',
    'people clap when planes land',
    'pigeons bob their heads',
    'onions make us cry',
    'escalators have brushes on the sides',
    'socks vanish in the wash',
    'dogs tilt their heads',
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

/**
 * Assistant replies open on what the round is about (the item, person, photo, topic) after a
 * short varied reaction, so no opening run of words repeats across a large corpus (issue: 52% of
 * assistant turns opened with a 6-word run used ≥ 50 times).
 */
export const ASSISTANT_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  like: [
    '{react}, {item} - [noted|lovely|got it|good to know]; I will keep it in mind when we talk about {topic} {dayRef}',
    '{react}[, {name}|], {item} it is - I will factor it into {aspect} for {topic}',
    '{react}, so {item} is a favourite; it could even fit into {topic} {dayRef}, {aspect} permitting',
  ],
  dislike: [
    '{react}, no {item} then - [understood|noted|fair enough]; I will steer clear of it for {topic}',
    '{react}[, {name}|], {item} is off the table - I will plan {topic} around that {dayRef}',
  ],
  driftLike: [
    '{react}, {item} instead of {prev} now - [thanks for the update|good to know]; I will adjust my suggestions {dayRef}',
    '{react}[, {name}|], from {prev} to {item} - I will plan {topic} with that in mind',
  ],
  driftDislike: [
    '{react}, so {item} is off the list now - [thanks for telling me|noted]; I will leave it out from now on',
    '{react}[, {name}|], no more {item} then; I will keep that in mind for {topic}',
  ],
  relationship: [
    '{react}, {person} [sounds|seems] [lovely|like a good friend|important to you|like great company]; how are things with them when it comes to {topic}?',
    '{react}[, {name}|], time with {person} [sounds nice|is worth a lot|sounds like it did you good]; {followUp}?',
  ],
  goal: [
    '{react}, {goal} - [what a great goal|love that|good for you]; {adviceLead} set a small milestone for {span}',
    '{react}[, {name}|], wanting to {goal} is [great|a good plan|exciting]; {followUp}?',
  ],
  statement: [
    '{react}, {kw} - [noted|good to know|that helps]; I will remember that when we talk about {topic}',
    '{react}[, {name}|], [thanks for sharing|good to know|that is useful] about {kw}; it helps me understand {aspect} for you',
  ],
  image: [
    '{react}, [lovely|great|nice|sweet] [photo|shot|picture]; where was it taken, and does it connect to {topic}?',
    '{react}[, {name}|], that [looks lovely|is a great shot|makes a nice picture]; {followUp}?',
  ],
  concept: [
    '{react}, {concept} [again|in a new photo|once more]! [such a|what a] [sweet|lovely|fun] [photo|shot|picture]; {followUp}?',
    '{react}[, {name}|], so this is {concept} - thanks for showing me, I will remember {concept} when we talk about {topic} {dayRef}',
  ],
  misstatement: [
    '{react}, noted: {slipDetail} is {slipWrong}',
    '{react}[, {name}|] - {slipWrong} for {slipDetail}, got it',
  ],
  correction: [
    '{react}, no problem - {slipDetail} is {slipRight}, not {slipWrong}; I have updated it',
    '{react}[, {name}|], fixed: {slipRight} for {slipDetail} instead of {slipWrong}',
  ],
  noise: [
    '{react}, [fun|good|fair|nice|odd] [question|tangent|one] - for {topic}, though, {adviceLead} {adviceAction}',
    '{react}[, {name}|] - [a quick|a short|a small] [detour|tangent|aside] from {topic}, [happy to|no problem]; then [we can get back to|back to] {aspect} {dayRef}',
  ],
  personalize: [
    'since you enjoy {known}, {adviceLead} pair it with {topic} {dayRef}',
    'given what you told me about {known}, {adviceLead} keep {aspect} in mind',
    'knowing you like {known}, a reward for finishing {topic} could be exactly that {dayRef}',
  ],
  personalizeDislike: [
    'and I will keep {known} out of anything about {topic}, since I know that is not for you',
    'no {known} in the {topic} suggestions, of course - let us focus on {aspect} instead',
    'I remember {known} is not your thing, so the {topic} ideas {dayRef} will skip it',
  ],
  askCondition: [
    'before I suggest {known} for {topic}: is it {when} this time, and does {aspect} matter?',
    'quick check before I recommend anything with {known} {dayRef} - is it {when}?',
    'would {known} work {dayRef}, or only {when}, so that I get {aspect} right',
  ],
};

/**
 * Style clauses conditioned on Big Five (high/low); prefixes attach with a comma, suffixes with a
 * comma. Each phrase is a cue `readPersonalityEvidence` (src/memory/gold/personality-evidence.ts)
 * reads as its trait and side, and no other user template holds one, so a personality-inference
 * target built from the text says exactly what the message shows (tested in style-cues.test.ts).
 */
export const STYLE_CLAUSES = {
  exclaimPrefix: [
    'oh wow',
    'guess what',
    'yay',
    'oh man',
    'I have to tell everyone',
    'I could chat about this all day',
  ],
  worrySuffix: [
    'though I am a bit worried about {aspect}',
    'and I keep overthinking {aspect}',
    'which is stressing me out a little',
    'and I am worried I will get it wrong',
    'I am nervous it will go wrong {dayRef}',
    'and it is keeping me up at night',
  ],
  bluntPrefix: ['just tell me straight', 'skip the fluff', 'no lectures please', 'do not waste my time'],
  politeSuffix: ['if you do not mind', 'thanks so much', 'no rush at all', 'I really appreciate it'],
  curiousPrefix: ['I am curious', 'I love trying new things', 'I want to explore something new'],
  plannerPrefix: ['I made a list already', 'to keep it organised', 'I like to plan ahead'],
  reservedPrefix: [
    'I will keep this short',
    'I am keeping to myself lately, so briefly',
    'not one for big chats, so briefly',
  ],
} as const;
