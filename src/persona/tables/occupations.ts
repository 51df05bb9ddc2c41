/**
 * Occupations with the ages and schooling they are plausible for. `keywords` let the file/hub
 * sources recognise an occupation in a free-text description ("a pediatric nurse who…").
 * `tiers` (optional) restricts where the job is found (no fishermen in downtown Shanghai).
 */
export const EDUCATION_LEVELS = [
  'secondary school',
  'vocational training',
  "bachelor's degree",
  "master's degree",
  'doctorate',
] as const;
export type EducationLevel = (typeof EDUCATION_LEVELS)[number];

export interface Occupation {
  title: string;
  minAge: number;
  maxAge: number;
  /** Index into EDUCATION_LEVELS: the least schooling the job needs. */
  minEducation: number;
  /** Index into EDUCATION_LEVELS: the most schooling that is still typical. */
  maxEducation: number;
  keywords: readonly string[];
  tiers?: readonly ('tier1' | 'tier2' | 'tier3' | 'rural')[];
  /** True for student roles, which set the life stage and the "in progress" education. */
  student?: boolean;
}

const o = (
  title: string,
  minAge: number,
  maxAge: number,
  minEducation: number,
  maxEducation: number,
  keywords: readonly string[],
  extra: Pick<Occupation, 'tiers' | 'student'> = {},
): Occupation => ({ title, minAge, maxAge, minEducation, maxEducation, keywords, ...extra });

const URBAN = ['tier1', 'tier2'] as const;
const TOWN = ['tier3', 'rural'] as const;

export const OCCUPATIONS: readonly Occupation[] = [
  o('high school student', 14, 18, 0, 0, ['high school student', 'teenager', 'high schooler'], {
    student: true,
  }),
  o(
    'undergraduate student',
    18,
    25,
    2,
    2,
    ['undergraduate', 'college student', 'university student', 'student'],
    { student: true, tiers: ['tier1', 'tier2', 'tier3'] },
  ),
  o('graduate student', 22, 34, 3, 4, ['graduate student', 'phd student', 'phd candidate', 'doctoral'], {
    student: true,
    tiers: ['tier1', 'tier2', 'tier3'],
  }),
  o('barista', 18, 40, 0, 2, ['barista', 'coffee shop']),
  o('retail sales associate', 18, 65, 0, 2, ['retail', 'sales associate', 'cashier', 'shop assistant']),
  o('delivery driver', 19, 62, 0, 1, ['delivery driver', 'courier']),
  o('warehouse supervisor', 24, 64, 0, 2, ['warehouse', 'logistics']),
  o('line cook', 18, 55, 0, 1, ['line cook', 'cook', 'kitchen']),
  o('head chef', 27, 66, 1, 2, ['chef', 'restaurant', 'culinary']),
  o('hairdresser', 18, 68, 1, 1, ['hairdresser', 'hair stylist', 'barber', 'salon']),
  o('electrician', 20, 66, 1, 1, ['electrician', 'wiring']),
  o('plumber', 20, 66, 1, 1, ['plumber', 'plumbing']),
  o('carpenter', 20, 68, 0, 1, ['carpenter', 'woodworker', 'joiner', 'woodworking']),
  o('auto mechanic', 19, 66, 1, 1, ['mechanic', 'auto repair', 'garage']),
  o('long-haul truck driver', 23, 66, 0, 1, ['truck driver', 'trucker', 'long-haul']),
  o('farmer', 18, 80, 0, 3, ['farmer', 'farm', 'agricultur', 'crops', 'livestock'], { tiers: TOWN }),
  o('fisherman', 18, 72, 0, 1, ['fisherman', 'fishing boat', 'fisher'], { tiers: TOWN }),
  o('vineyard manager', 28, 70, 1, 3, ['vineyard', 'winemaker', 'wine grower'], { tiers: TOWN }),
  o('registered nurse', 22, 66, 2, 3, ['nurse', 'nursing']),
  o('pediatrician', 30, 70, 4, 4, ['pediatrician', "children's doctor"]),
  o('general practitioner', 29, 70, 4, 4, ['doctor', 'physician', 'general practitioner', 'gp']),
  o('surgeon', 31, 68, 4, 4, ['surgeon', 'surgery']),
  o('pharmacist', 25, 68, 3, 4, ['pharmacist', 'pharmacy']),
  o('physiotherapist', 24, 66, 2, 3, ['physiotherapist', 'physical therapist', 'rehabilitation']),
  o('dentist', 27, 68, 4, 4, ['dentist', 'dental']),
  o('veterinarian', 27, 68, 4, 4, ['veterinarian', 'vet ', 'animal clinic']),
  o('psychologist', 28, 72, 3, 4, ['psychologist', 'therapist', 'counselor', 'mental health']),
  o('social worker', 23, 66, 2, 3, ['social worker', 'social work', 'community outreach']),
  o('primary school teacher', 22, 66, 2, 3, [
    'primary school teacher',
    'elementary school teacher',
    'kindergarten teacher',
  ]),
  o('high school chemistry teacher', 23, 66, 2, 3, ['chemistry teacher', 'science teacher']),
  o('high school history teacher', 23, 66, 2, 3, ['history teacher', 'social studies teacher']),
  o('university lecturer in linguistics', 29, 70, 4, 4, ['linguist', 'linguistics', 'lecturer']),
  o('professor of economics', 33, 75, 4, 4, ['economist', 'economics professor', 'professor'], {
    tiers: URBAN,
  }),
  o('research biologist', 27, 70, 4, 4, ['biologist', 'research scientist', 'laboratory', 'molecular']),
  o('librarian', 23, 68, 2, 3, ['librarian', 'library', 'archivist']),
  o('software engineer', 21, 66, 2, 4, ['software engineer', 'developer', 'programmer', 'software']),
  o('data scientist', 23, 62, 2, 4, ['data scientist', 'data analyst', 'machine learning', 'statistics']),
  o('IT support technician', 19, 64, 1, 2, ['it support', 'technician', 'help desk', 'sysadmin']),
  o('UX designer', 22, 60, 2, 3, ['ux designer', 'user experience', 'product designer'], { tiers: URBAN }),
  o('graphic designer', 21, 64, 1, 3, ['graphic designer', 'illustrator', 'designer']),
  o('architect', 26, 72, 3, 3, ['architect', 'architecture']),
  o('civil engineer', 23, 67, 2, 3, ['civil engineer', 'bridges', 'infrastructure']),
  o('mechanical engineer', 23, 67, 2, 4, ['mechanical engineer', 'engineer', 'manufacturing']),
  o('accountant', 22, 68, 2, 3, ['accountant', 'accounting', 'bookkeeper', 'auditor']),
  o('investment banker', 23, 60, 2, 3, ['investment banker', 'banker', 'finance', 'wall street'], {
    tiers: ['tier1'],
  }),
  o('financial advisor', 25, 70, 2, 3, ['financial advisor', 'financial planner', 'wealth']),
  o('insurance claims adjuster', 23, 66, 1, 2, ['insurance', 'claims adjuster']),
  o('lawyer', 25, 72, 3, 4, ['lawyer', 'attorney', 'solicitor', 'legal']),
  o('paralegal', 21, 66, 1, 2, ['paralegal', 'legal assistant']),
  o('police officer', 21, 60, 0, 2, ['police officer', 'policeman', 'policewoman', 'detective']),
  o('firefighter', 20, 60, 0, 2, ['firefighter', 'fire department']),
  o('marketing manager', 26, 64, 2, 3, ['marketing', 'brand manager', 'advertising']),
  o('human resources manager', 26, 66, 2, 3, ['human resources', 'hr manager', 'recruiter']),
  o('project manager in construction', 27, 66, 1, 3, ['project manager', 'construction']),
  o('small business owner running a bakery', 24, 75, 0, 2, ['bakery', 'baker', 'pastry']),
  o('owner of a family-run grocery store', 25, 78, 0, 2, ['grocery', 'shopkeeper', 'store owner']),
  o('real estate agent', 22, 72, 0, 2, ['real estate', 'realtor', 'property agent']),
  o('journalist', 22, 70, 2, 3, ['journalist', 'reporter', 'newspaper', 'editor']),
  o('freelance translator', 22, 75, 2, 3, ['translator', 'interpreter', 'translation']),
  o('novelist', 25, 85, 0, 4, ['novelist', 'author', 'writer', 'fiction']),
  o('photographer', 20, 72, 0, 3, ['photographer', 'photography', 'camera']),
  o('musician', 18, 80, 0, 3, ['musician', 'guitarist', 'pianist', 'violinist', 'band']),
  o('film editor', 22, 66, 1, 3, ['film editor', 'filmmaker', 'video editor', 'documentary'], {
    tiers: URBAN,
  }),
  o('museum curator', 27, 72, 3, 4, ['curator', 'museum', 'art historian']),
  o('personal trainer', 19, 60, 0, 2, ['personal trainer', 'fitness coach', 'gym']),
  o('yoga instructor', 20, 72, 0, 2, ['yoga instructor', 'yoga teacher']),
  o('flight attendant', 20, 60, 0, 2, ['flight attendant', 'cabin crew', 'airline']),
  o('airline pilot', 24, 65, 2, 3, ['pilot', 'aviation']),
  o('hotel receptionist', 18, 62, 0, 2, ['receptionist', 'hotel', 'front desk']),
  o('tour guide', 20, 72, 0, 2, ['tour guide', 'tourism']),
  o('urban planner', 25, 68, 3, 3, ['urban planner', 'city planning', 'zoning'], { tiers: URBAN }),
  o('environmental scientist', 24, 68, 2, 4, [
    'environmental scientist',
    'climate',
    'ecologist',
    'conservation',
  ]),
  o('park ranger', 21, 65, 1, 2, ['park ranger', 'forest ranger', 'wildlife'], { tiers: TOWN }),
  o('civil servant in the tax office', 22, 66, 1, 3, [
    'civil servant',
    'government',
    'public sector',
    'tax office',
  ]),
  o('pastor', 27, 80, 2, 4, ['pastor', 'priest', 'minister', 'church', 'imam', 'clergy']),
  o('stay-at-home parent', 22, 60, 0, 3, ['stay-at-home', 'homemaker', 'full-time parent']),
  o('nursing home caregiver', 18, 66, 0, 1, ['caregiver', 'care worker', 'nursing home', 'elderly care']),
  o('e-commerce seller', 19, 66, 0, 2, ['e-commerce', 'online shop', 'online store']),
  o('game developer', 21, 58, 1, 3, ['game developer', 'video game', 'game designer']),
  o('startup founder', 22, 60, 1, 4, ['startup', 'entrepreneur', 'founder']),
];
