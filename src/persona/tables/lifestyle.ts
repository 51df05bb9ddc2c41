/**
 * Family situations (with the ages they fit) and interests (with the phrase a one-line
 * description uses). Both feed the builtin generator and fill gaps for file/hub personas.
 */
export interface FamilySituation {
  text: string;
  minAge: number;
  maxAge: number;
  /** Has children under 18 at home (a stay-at-home parent needs one). */
  youngChildren: boolean;
}

const f = (text: string, minAge: number, maxAge: number, youngChildren = false): FamilySituation => ({
  text,
  minAge,
  maxAge,
  youngChildren,
});

export const FAMILY_SITUATIONS: readonly FamilySituation[] = [
  f('lives with parents and a younger sibling', 14, 19),
  f('lives with parents', 14, 32),
  f('shares a flat with two roommates', 18, 35),
  f('single, lives alone', 21, 90),
  f('single, lives alone with a cat', 21, 90),
  f('in a long-term relationship, not living together', 18, 60),
  f('lives with a partner', 20, 75),
  f('newly married', 22, 45),
  f('married, no children', 25, 85),
  f('married with a toddler', 24, 46, true),
  f('married with two school-age children', 30, 54, true),
  f('single parent of a young child', 21, 48, true),
  f('married with teenage children', 36, 60, true),
  f('divorced, co-parenting a ten-year-old', 30, 56, true),
  f('divorced, lives alone', 32, 85),
  f('married, the children have left home', 47, 85),
  f('grandparent of three, married', 52, 95),
  f('widowed, close to the grandchildren', 60, 100),
  f('cares for an elderly parent at home', 35, 70),
];

export interface Interest {
  name: string;
  /** Verb phrase for a one-line description, e.g. "bakes sourdough on weekends". */
  phrase: string;
  minAge?: number;
  maxAge?: number;
}

const i = (name: string, phrase: string, minAge?: number, maxAge?: number): Interest => ({
  name,
  phrase,
  ...(minAge === undefined ? {} : { minAge }),
  ...(maxAge === undefined ? {} : { maxAge }),
});

export const INTERESTS: readonly Interest[] = [
  i('sourdough baking', 'bakes sourdough bread on weekends'),
  i('trail running', 'trains for trail races', 16, 70),
  i('birdwatching', 'keeps a notebook of every bird spotted'),
  i('jazz', 'collects old jazz records'),
  i('chess', 'plays online chess every evening'),
  i('gardening', 'grows tomatoes and herbs on a small plot'),
  i('photography', 'photographs street life with an old film camera'),
  i('cooking Sichuan food', 'experiments with fiery Sichuan recipes'),
  i('vegan cooking', 'cooks plant-based meals for friends'),
  i('board games', 'hosts a weekly board-game night'),
  i('k-dramas', 'binge-watches Korean dramas'),
  i('anime', 'follows seasonal anime releases', 12, 60),
  i('football', 'never misses a match of the local football club'),
  i('basketball', 'plays pickup basketball after work', 14, 55),
  i('cycling', 'commutes and tours by bike', 14, 78),
  i('hiking', 'spends holidays hiking mountain trails', 14, 78),
  i('swimming', 'swims laps at the public pool before work'),
  i('yoga', 'practises yoga at dawn'),
  i('knitting', 'knits sweaters for the whole family'),
  i('woodworking', 'builds furniture in a garage workshop', 16),
  i('video games', 'plays cooperative video games with friends', 12, 65),
  i('tabletop role-playing', 'runs a Dungeons & Dragons campaign', 14, 65),
  i('classical music', 'goes to symphony concerts'),
  i('playing the guitar', 'plays guitar in a weekend cover band', 14, 75),
  i('piano', 'is relearning the piano'),
  i('karaoke', 'sings karaoke with colleagues'),
  i('travel', 'plans trips to countries never visited before'),
  i('camping', 'camps in national parks with a tent and a camp stove'),
  i('fishing', 'goes fly-fishing at dawn'),
  i('coffee', 'roasts coffee beans at home'),
  i('tea culture', 'collects oolong and pu-erh teas'),
  i('wine tasting', 'keeps tasting notes on regional wines', 21),
  i('craft beer', 'visits small craft breweries', 21),
  i('vintage fashion', 'hunts for vintage clothes at flea markets'),
  i('sneaker collecting', 'collects limited-edition sneakers', 14, 50),
  i('skincare', 'researches skincare ingredients'),
  i('astronomy', 'photographs the night sky with a backyard telescope'),
  i('history podcasts', 'listens to history podcasts on the commute'),
  i('science fiction novels', 'reads a science-fiction novel a week'),
  i('mystery novels', 'devours detective novels'),
  i('poetry', 'writes poems in a notebook'),
  i('calligraphy', 'practises brush calligraphy'),
  i('painting', 'paints watercolour landscapes'),
  i('pottery', 'throws pots at a community studio'),
  i('volunteering', 'volunteers at the local food bank'),
  i('language learning', 'is learning Spanish with a daily app streak'),
  i('investing', 'follows the stock market and index funds', 20),
  i('home renovation', 'is renovating an old house room by room', 25),
  i('interior design', 'rearranges the living room every season'),
  i('pets', 'fosters rescue dogs'),
  i('aquariums', 'keeps a planted freshwater aquarium'),
  i('martial arts', 'trains in judo twice a week', 12, 65),
  i('dancing', 'takes salsa classes'),
  i('theatre', 'acts in amateur theatre productions'),
  i('film', 'watches a classic film every Sunday'),
  i('stand-up comedy', 'goes to open-mic comedy nights', 18),
  i('marathon training', 'is training for a first marathon', 18, 65),
  i('rock climbing', 'boulders at the climbing gym', 14, 60),
  i('skiing', 'spends every winter holiday skiing'),
  i('surfing', 'surfs before sunrise', 14, 65),
  i('motorcycles', 'restores vintage motorcycles', 18),
  i('classic cars', 'tinkers with a classic car', 20),
  i('drones', 'flies camera drones over the countryside', 14),
  i('3D printing', 'designs and 3D-prints gadgets', 14),
  i('robotics', 'builds small robots with a microcontroller kit', 12, 70),
  i('genealogy', 'traces the family tree through old archives', 35),
  i('local politics', 'attends town council meetings', 20),
  i('meditation', 'meditates for twenty minutes every morning'),
  i('street food', 'seeks out the best street-food stalls in town'),
  i('fermentation', 'makes kimchi and kombucha at home'),
  i('baking pastries', 'perfects French pastries'),
  i('crossword puzzles', 'solves the daily crossword'),
  i('sustainable living', 'tries to live zero-waste'),
  i('fashion design', 'sews clothes from original patterns', 14),
  i('social media content', 'posts short cooking videos online', 14, 55),
  i('mahjong', 'plays mahjong with neighbours'),
  i('tai chi', 'practises tai chi in the park', 30),
  i('bonsai', 'shapes bonsai trees on the balcony', 25),
];
