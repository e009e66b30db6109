import { describe, expect, it } from 'vitest';
import { betterAddress, isHoursText, usableText } from '../../utils/listing/field-quality';

describe('isHoursText', () => {
  it('knows the opening-status lines of Google Maps and the Korean map sites', () => {
    for (const text of [
      'Open',
      'Closed',
      'Open 24 hours',
      'Closes 10 pm',
      'Opens 9 am',
      'Opens 6 PM Tue',
      'Open ⋅ Closes 8:30 PM',
      'Closed · Opens 12 PM',
      'Closing soon',
      'Temporarily closed',
      '\uE8B5 Open ⋅ Closes 1 am',
      '영업 중',
      '영업 종료',
      '곧 영업 종료',
      '곧 영업 시작',
      '영업 전',
      '11:00에 영업 시작',
      '영업 중 ⋅ 오후 10:00에 영업 종료',
      '24시간 영업',
      '15:00에 브레이크타임',
      '정기휴무 (매달 5번째 일요일)',
      '임시 휴업',
    ]) {
      expect(isHoursText(text), text).toBe(true);
    }
  });

  it('leaves categories and addresses alone, even ones with an hours word in them', () => {
    for (const text of ['Cafe', 'Open-air market', 'Opera house', 'Closed Circuit TV shop', '카페', '영업용품 도매', '123 Main St', 'Cafe · Open', '']) {
      expect(isHoursText(text), text).toBe(false);
    }
    expect(isHoursText(null)).toBe(false);
    expect(usableText('Open ⋅ Closes 10 pm')).toBeNull();
    expect(usableText('Bakery')).toBe('Bakery');
  });
});

describe('betterAddress', () => {
  const full = '123 Main Street, Springfield, IL 62701';
  it("keeps the panel's full address over a card's street text, in either order", () => {
    expect(betterAddress(full, '123 Main St')).toBe(full);
    expect(betterAddress('123 Main St', full)).toBe(full);
    expect(betterAddress(full, 'Main St #4')).toBe(full); // a fragment of the same street
    expect(betterAddress('서울특별시 강남구 강남대로 123', '강남대로 123')).toBe('서울특별시 강남구 강남대로 123');
    expect(betterAddress('강남대로 123', '서울특별시 강남구 강남대로 123')).toBe('서울특별시 강남구 강남대로 123');
  });

  it('never takes hours text or nothing, and takes a different address (the place moved)', () => {
    expect(betterAddress(full, 'Open ⋅ Closes 10 pm')).toBe(full);
    expect(betterAddress('영업 중', '강남대로 123')).toBe('강남대로 123');
    expect(betterAddress(full, null)).toBe(full);
    expect(betterAddress(null, '45 Elm St')).toBe('45 Elm St');
    expect(betterAddress(full, '45 Elm St')).toBe('45 Elm St');
    expect(betterAddress(full, '9 Oak Avenue, Shelbyville, IL 62565')).toBe('9 Oak Avenue, Shelbyville, IL 62565');
  });
});
