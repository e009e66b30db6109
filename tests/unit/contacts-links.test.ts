import { describe, expect, it } from 'vitest';
import { pickContactPages } from '../../utils/contacts/contact-links';
import type { PageLink } from '../../utils/contacts/types';

// Which links of a home page the contacts pass also reads (issue 23: at most 3, same site).

const HOME = 'https://www.cafe.kr/';
const link = (href: string, text = ''): PageLink => ({ href, text });

describe('pickContactPages', () => {
  it('contact pages before about pages, words a person reads before paths, the page order kept among equals', () => {
    const links = [
      link('https://www.cafe.kr/company/intro', '회사소개'),
      link('https://www.cafe.kr/menu', 'Menu'),
      link('https://www.cafe.kr/about-us.html', 'Our story'),
      link('https://www.cafe.kr/p/17', '오시는 길'),
      link('https://www.cafe.kr/contact', 'Contact'),
    ];
    expect(pickContactPages(links, HOME)).toEqual(['https://www.cafe.kr/p/17', 'https://www.cafe.kr/contact', 'https://www.cafe.kr/company/intro']);
    expect(pickContactPages(links, HOME, 5)).toEqual([
      'https://www.cafe.kr/p/17',
      'https://www.cafe.kr/contact',
      'https://www.cafe.kr/company/intro',
      'https://www.cafe.kr/about-us.html',
    ]);
  });

  it.each([
    ['Contact us'],
    ['CONTACTS'],
    ['Kontakt'],
    ['Impressum'],
    ['Imprint'],
    ['Contacto'],
    ['Contato'],
    ['Nous contacter'],
    ['문의하기'],
    ['고객 문의'],
    ['연락처'],
    ['오시는길'],
    ['온라인상담'],
    ['상담문의'],
    ['상담 신청'],
    ['고객센터'],
    ['고객지원'],
    ['연락하기'],
    ['찾아오시는 길'],
    ['お問い合わせ'],
    ['会社概要'],
    ['About'],
    ['À propos'],
    ['Über uns'],
  ])('the words %j', (text) => {
    expect(pickContactPages([link('https://cafe.kr/x1', text)], HOME)).toEqual(['https://cafe.kr/x1']);
  });

  it('the path when the words say nothing: ASCII and percent-encoded Korean', () => {
    const links = [
      link('https://www.cafe.kr/sub/contact_us.php', '→'),
      link('https://www.cafe.kr/%EB%AC%B8%EC%9D%98', ''),
      link('https://www.cafe.kr/gallery', 'Gallery'),
    ];
    expect(pickContactPages(links, HOME)).toEqual(['https://www.cafe.kr/sub/contact_us.php', 'https://www.cafe.kr/%EB%AC%B8%EC%9D%98']);
  });

  it('same site only, ignoring www.; never the home page again; never files', () => {
    const links = [
      link('https://other.kr/contact', 'Contact'),
      link('https://shop.cafe.kr/contact', 'Contact'),
      link('http://cafe.kr/', 'Contact'),
      link('https://www.cafe.kr/index.html', 'Contact'),
      link('https://www.cafe.kr/files/contact.pdf', 'Contact (PDF)'),
      link('https://www.cafe.kr/img/about.JPG', 'About'),
      link('https://www.cafe.kr/docs/문의.hwp', '문의 양식'),
      link('https://cafe.kr/contact.html', 'Contact'),
    ];
    expect(pickContactPages(links, HOME)).toEqual(['https://cafe.kr/contact.html']);
  });

  it('one URL once, however many links point to it', () => {
    const links = [link('https://www.cafe.kr/contact/', 'Contact'), link('https://cafe.kr/contact', '문의'), link('http://www.cafe.kr/contact', 'Kontakt')];
    expect(pickContactPages(links, HOME)).toEqual(['https://www.cafe.kr/contact/']);
  });

  it('not stories about consultations (상담사례, 상담후기), nor a link with a user name or password', () => {
    const links = [
      link('https://www.cafe.kr/b/1', '상담사례'),
      link('https://www.cafe.kr/b/2', '상담후기'),
      link('https://x:y@www.cafe.kr/contact', 'Contact'),
      link('https://www.cafe.kr/map', '오시는 길'),
    ];
    expect(pickContactPages(links, HOME)).toEqual(['https://www.cafe.kr/map']);
  });

  it('words that only contain a keyword inside another word are not it', () => {
    expect(pickContactPages([link('https://cafe.kr/a', 'Noncontactual'), link('https://cafe.kr/b', 'Roundabout')], HOME)).toEqual([]);
  });

  it('no home, no pages', () => {
    expect(pickContactPages([link('https://cafe.kr/contact', 'Contact')], 'not a url')).toEqual([]);
  });
});
