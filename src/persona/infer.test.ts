import { describe, expect, it } from 'vitest';
import {
  inferAge,
  inferFamilyHint,
  inferGender,
  inferOccupation,
  inferPlace,
  inferRetired,
  inferRolePhrase,
} from './infer.js';

describe('description inference', () => {
  it('finds the occupation by its longest keyword', () => {
    expect(inferOccupation('A pediatric nurse who loves jazz')?.title).toBe('registered nurse');
    expect(inferOccupation('A high school chemistry teacher in Ohio')?.title).toBe(
      'high school chemistry teacher',
    );
    expect(inferOccupation('Someone who likes clouds')).toBeUndefined();
  });

  it('reads retirement, pronouns and places', () => {
    expect(inferRetired('A retired firefighter')).toBe(true);
    expect(inferGender('A mother of two who runs marathons')).toBe('female');
    expect(inferGender('He restores old radios')).toBe('male');
    expect(inferGender('A person who gardens')).toBeUndefined();
    expect(inferPlace('A chef from Lyon')?.country.name).toBe('France');
  });

  it('takes the opening role phrase of a PersonaHub line', () => {
    expect(inferRolePhrase('A local historian passionate about medieval castles')).toBe('local historian');
    expect(inferRolePhrase('An aspiring novelist, writing at night')).toBe('aspiring novelist');
    expect(inferRolePhrase('Loves cats')).toBeUndefined();
    expect(inferRolePhrase('A die-hard fan of "Chasing Life" who supports renewal')).toBeUndefined();
    expect(inferRolePhrase('A mother of two who runs a bakery')).toBeUndefined();
    expect(
      inferRolePhrase(
        'Angela is a 31 year old woman who works as the manager of a gift shop in Chapel Hill.',
      ),
    ).toBe('manager of a gift shop');
  });

  it('reads a stated age and family hints', () => {
    expect(inferAge('Angela is a 31 year old woman')).toBe(31);
    expect(inferAge('A 45-year-old baker')).toBe(45);
    expect(inferAge('A baker aged 60 who…')).toBe(60);
    expect(inferAge('A baker with 3 dogs')).toBeUndefined();
    expect(inferFamilyHint('A grandmother who knits')).toBe('grandparent');
    expect(inferFamilyHint('A father of twins')).toBe('parent');
    expect(inferFamilyHint('A chess player')).toBeUndefined();
  });
});
