import { describe, expect, it } from 'vitest';
import { joinJibunAddress, joinRoadAddress } from '../../utils/providers/naver/fields';

describe('Naver addresses made whole', () => {
  it('puts the region before a road part, also when the road is named after a city (세종대로, 부산로)', () => {
    expect(joinRoadAddress('서울 중구 명동', '세종대로 308')).toBe('서울 중구 세종대로 308');
    expect(joinRoadAddress('서울 중구 명동', '을지로 240')).toBe('서울 중구 을지로 240');
    expect(joinRoadAddress('서울 강서구 화곡동', '부산로 12')).toBe('서울 강서구 부산로 12');
  });

  it('leaves an address that already names its region as it is, short or long form', () => {
    expect(joinRoadAddress('서울 중구 명동', '서울 중구 세종대로 110')).toBe('서울 중구 세종대로 110');
    expect(joinRoadAddress('서울 중구 명동', '서울특별시 중구 세종대로 110')).toBe('서울특별시 중구 세종대로 110');
    expect(joinRoadAddress('세종 한솔동', '세종 노을3로 10')).toBe('세종 노을3로 10');
    expect(joinJibunAddress('서울 중구 명동', '명동 12-3')).toBe('서울 중구 명동 12-3');
  });
});
