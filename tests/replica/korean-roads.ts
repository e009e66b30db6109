/** Korean names of the replica world's roads (tests/replica/world.ts ROADS), shared by the Korean pages of every replica. */
export const ROAD_KO: Record<string, string> = {
  'Sejong-daero': '세종대로',
  'Jong-ro': '종로',
  'Teheran-ro': '테헤란로',
  'Dosan-daero': '도산대로',
  'Eulji-ro': '을지로',
  'Toegye-ro': '퇴계로',
  'Hangang-daero': '한강대로',
  'Yanghwa-ro': '양화로',
  'Itaewon-ro': '이태원로',
  'Seongsu-ileo-ro': '성수일로',
  'Olympic-ro': '올림픽로',
  'Gangnam-daero': '강남대로',
  'Yulgok-ro': '율곡로',
  'Cheonggyecheon-ro': '청계천로',
  'Wausan-ro': '와우산로',
  'Nonhyeon-ro': '논현로',
};
