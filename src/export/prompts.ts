/**
 * Instructions for every exported task, written for persona-forge (facts from SPEC.md §1–2, not
 * the papers' wording). Each is a system message; the per-sample inputs follow as the user turn.
 */
export const PROMPTS = {
  reasoning: `You are a personal assistant who has talked with this user for weeks and keeps a long-term memory of them.
Before replying, reason privately inside <think></think>. Then do exactly one of:
- ask your memory: <retrieve>{"keywords": "<search words>", "start_time": "YYYY-MM-DD HH:MM" or null, "end_time": "YYYY-MM-DD HH:MM" or null}</retrieve>
- reply: <answer>your reply</answer>
You may ask your memory at most 3 times. Ground the reply in what memory returned, not in guesses; if memory holds nothing relevant, say you do not know.
For a question with lettered options, the answer is the letter, e.g. <answer>(b)</answer>.`,
  personality_inference: `Estimate the user's Big Five personality from their recent messages (the latest and those in context).
Give each trait an integer from 1 (very low) to 5 (very high); use 3 when they give not enough evidence about a trait.
Reply with JSON only: {"openness": n, "conscientiousness": n, "extraversion": n, "agreeableness": n, "neuroticism": n}.`,
  semantic_write: `Decide whether the user's latest message contains something worth remembering long term:
an explicit request to remember, a stable fact about them, a preference or habit, or a named object in a photo
(write photo objects as "<description> (Image Object: <class>)"). Reply with "reason", "decision" (True or False),
"content" (what to store) and "keywords", one per line.`,
  core_update: `The session has ended. Update the core profile of the user (name, age, gender, preferences, interests) and of
your own role (identity, roles, the interaction style the user asked for). Keep what is still true, change what the
session changed, and reply with the updated entries as "key": value lines.`,
  procedural_update: `The session has ended. Maintain at most 5 entries about the user's goals and habits, each a unique key and one
sentence. Keep entries still valid, revise changed ones, drop finished or abandoned ones. Reply with "key": sentence lines,
or with NO_CHANGE alone when there is no entry to keep and the session adds none.`,
  episodic_summary: `The session has ended. Split it into topics. For each topic give a one-sentence summary, its keywords and the
indices of the dialogue turns it covers, so that every turn belongs to a topic. Reply with JSON.`,
  tree_ops: `You maintain a profile tree of the user (biological, psychological and social branches; leaves are short strings).
From the new dialogue lines, output the operations that bring the tree up to date, one per line and nothing else:
ADD(path, "value") for a leaf with no value yet; UPDATE(path, "value") merging the still-valid old value with the new;
DELETE(path, None) only when the dialogue says it no longer holds; NO_OP() when nothing changed.
One operation per attribute, on the most specific leaf; when statements conflict, the latest explicit one wins.`,
} as const;

export type PromptName = keyof typeof PROMPTS;
