/**
 * Sentence templates of the offline realizer's assistant replies (src/synth/offline/compose.ts).
 */

/**
 * Assistant replies open on what the round is about (the item, person, photo, topic) after a
 * short varied reaction, so no opening run of words repeats across a large corpus (issue: 52% of
 * assistant turns opened with a 6-word run used ≥ 50 times).
 */
export const ASSISTANT_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  like: [
    '{react}, {item} - [noted|lovely|got it|good to know]; I will keep it in mind when we talk about {topic}',
    '{react}[, {name}|], {item} it is - I will factor that in [next time|from now on|when I plan {dayRef}]',
    '{react}, {item} - so you are a fan; I will [remember that|keep that in mind|bring it up {dayRef}]',
    '{react}, {item} {sounds} [like a good pick|great|like you]; [maybe|perhaps] we can fit it in {dayRef}',
  ],
  dislike: [
    '{calmReact}, I will keep {item} out of it then - [understood|noted|fair enough]',
    '{calmReact}[, {name}|], I will leave {item} out of anything I suggest [for {topic}|from now on|{dayRef}]',
    '{calmReact}, [not|never] {item} for you then; I will [remember that|plan around it]',
  ],
  // A change of preference is answered as a change: what is out, what is in (issue 27: replies next
  // to drift turns answer the drift).
  driftAddLike: [
    '{react}, {item} lately - [good to know|noted]; I will suggest it from now on',
    '{react}[, {name}|], {item} {is} new for you then - I will keep it in mind',
  ],
  driftAddDislike: [
    '{calmReact}, so {item} {is} out for you now - [understood|noted]; I will leave it out of my suggestions',
    '{calmReact}[, {name}|], {item} {is} off the list from now on then; I will not suggest it',
  ],
  driftDeleteLike: [
    '{calmReact}, so {item} {is} not part of your life any more - [understood|noted]; I will stop suggesting it',
    '{calmReact}[, {name}|], you are done with {item} then; I will not bring it up',
  ],
  driftDeleteDislike: [
    '{react}, so {item} {does} not bother you any more - [noted|good to know]; I will not rule it out from now on',
    '{react}[, {name}|], {item} {is} fine for you now then; I will update my notes',
  ],
  driftModify: [
    '{calmReact}, so {fromPart}, and {toPart} - [thanks for the update|noted]; I will adjust my suggestions',
    '{calmReact}[, {name}|]: {fromPart}, {toPart}; I will keep that in mind from now on',
  ],
  relationship: [
    '{react}, {person} [sounds|seems] [lovely|like a good friend|important to you|like great company]; how are things with them these days?',
    '{react}[, {name}|], time with {person} [sounds nice|is worth a lot|sounds like it did you good]',
  ],
  relationshipCloser: [
    '{react}, it is good to hear you and {person} have grown closer',
    '{react}[, {name}|], that sounds like a good change with {person}',
  ],
  relationshipApart: [
    '{calmReact}, I am sorry you and {person} have drifted apart; do you want to talk about it?',
    '{calmReact}[, {name}|], that sounds hard with {person} - these things often change again',
  ],
  // A goal is answered at its status: a goal the user gave up is not cheered on.
  goal_planned: [
    '{react}, {goal} - [what a great goal|love that|good for you]; {adviceLead} set a small milestone for {span}',
    '{react}[, {name}|], wanting to {goal} is [great|a good plan|exciting]',
  ],
  goal_in_progress: [
    '{react}, trying to {goal} takes time - good to hear you are making progress',
    '{react}[, {name}|], so the plan to {goal} is under way; {followUp}?',
  ],
  goal_achieved: [
    '{react}, congratulations - you managed to {goal}!',
    '{react}[, {name}|], you did it: you managed to {goal}; that took real effort',
  ],
  goal_abandoned: [
    '{calmReact}, trying to {goal} is off the list then - understood; I will not bring it up unless you do',
    '{calmReact}[, {name}|], so the plan to {goal} is off; we can look at something else whenever you like',
  ],
  statement: [
    '{react}, {kw} - [noted|good to know|that helps]; I will [remember that|keep it in mind {dayRef}|not forget it]',
    '{react}[, {name}|], [thanks for sharing|good to know|that is useful] about {kw}[| - it helps with {topic}]',
  ],
  image: [
    '{react}, [lovely|great|nice|sweet] [photo|shot|picture] - where was it taken?',
    '{react}[, {name}|], that [looks lovely|is a great shot|makes a nice picture]; {followUp}?',
  ],
  concept: [
    '{react}, {concept} [again|in a new photo|once more]! [Such a|What a] [sweet|lovely|fun] [photo|shot|picture]',
    '{react}[, {name}|], so this is {concept} - thanks for showing me, I will remember {concept}',
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
    '{react}, [fun|good|fair|nice|odd] [question|tangent|one] - I am not sure off the top of my head, but [happy to look it up|we can look it up {dayRef}|I can find out {dayRef}]',
    '{react}[, {name}|] - [a quick|a short|a small] [detour|tangent|aside], [happy to|no problem]; then [we can get back to|back to] {topic} whenever you like',
  ],
  // Noise rounds answered as what they are: a look at something new, a gift for someone, an urge.
  exploratory: [
    '{react}, [good question|fair question] - [it depends on what you want from it|most people say it is worth a try]; a [taster session|cheap first try|short trial] is usually the easiest way to find out',
    '{react}[, {name}|] - no commitment needed; [reading a few beginner reviews|trying it once with a friend] would tell you a lot',
  ],
  on_behalf: [
    '{react}, happy to help - what are they into, and what is your budget?',
    '{react}[, {name}|], a gift for someone else - [nice|lovely]; tell me a bit about what they like and I will suggest a few things',
  ],
  impulse: [
    '{react}, [fair enough|I know that feeling] - if it still sounds good [tomorrow|in a week], it might be worth it',
    '{react}[, {name}|], [cravings like that usually pass|sleep on it] - [no need to decide now|you can decide later]',
  ],
  // A word on the change itself, after a change of taste, a goal given up or a friendship cooling.
  changeNote: [
    '[tastes change|preferences shift|people change], and that is [completely normal|perfectly fine|how it should be]',
    'it makes sense to [update things|change course|move on] when something no longer [works for you|fits|feels right]',
    '[thanks for telling me|good that you told me|thanks for the heads-up] - it helps me keep my suggestions [right|useful|on track]',
    'I would rather know than keep [suggesting|recommending|bringing up] the wrong things',
    'it is good that you [noticed|know|worked out] what suits you [now|these days|at the moment]',
    'I have made a note of it [so I do not get it wrong later|for next time|for our next chats]',
    'no need to explain [more than you want to|yourself|anything else]',
  ],
  // Second sentences that stay on what the user just said.
  afterChange: [
    'is there [anything|something] you would like [instead|in its place] {dayRef}',
    '[what changed your mind|what made you change your mind|how did that come about], if you do not mind me asking',
    'do you want a few ideas for {topic} that fit the change',
    'shall I update the plans we made for {topic}',
    'should I look for alternatives for {topic} {dayRef}',
  ],
  afterGoalEnd: [
    'is there something else you would like to focus on [now|instead|for a while]',
    'what would you like to do with the time {dayRef}',
    'do you want to talk about {topic} instead',
  ],
  afterAchieved: [
    'how are you going to celebrate {dayRef}',
    'what is next for you after {topic}',
    'how does it feel now',
  ],
  asFor: ['as for {topic}, {adviceLead} {adviceAction}', 'back to {topic}: {adviceLead} {adviceAction}'],
  personalize: [
    'since you enjoy {known}, {adviceLead} make room for it {dayRef}',
    'given what you told me about {known}, it could be a nice reward {dayRef}',
    'knowing you like {known}, it might fit in somewhere {dayRef}',
  ],
  personalizeDislike: [
    'and I will keep {known} out of anything I suggest [for {topic}|{dayRef}], since I know that is not for you',
    'I will leave {known} out of my suggestions [for {topic}|{dayRef}], of course',
    'I remember {known} is not your thing, so my ideas {dayRef} will skip it',
  ],
  askCondition: [
    'before I suggest {known}: is it {when} [this time|again|as usual]?',
    '[quick check|just checking|one question] before I [recommend|suggest|plan] anything with {known} - is it {when}?',
    'would {known} suit you {dayRef}, or only {when}?',
  ],
};
