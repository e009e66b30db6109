/**
 * The interface's strings, English and Korean side by side, so a missing translation is
 * visible in review. `npx tsx scripts/locales.ts` writes public/_locales/{en,ko}/messages.json;
 * a unit test checks the written files match this table and that both languages have every key.
 */
import { writeFileSync, mkdirSync } from 'node:fs';

export const MESSAGES: Record<string, [en: string, ko: string]> = {
  extName: ['MapSweep', 'MapSweep'],
  extDescription: [
    'Collect every business listing in an area from the map page you have open.',
    '열어 둔 지도 페이지에서 지역의 모든 업체 목록을 수집합니다.',
  ],
  fieldKeywords: ['Keywords', '검색어'],
  keywordsPlaceholder: ['One per line, e.g. cafe', '한 줄에 하나씩, 예: 카페'],
  fieldArea: ['Area', '지역'],
  areaPlaceholder: [
    'south,west,north,east — or paste a GeoJSON polygon',
    '남,서,북,동 좌표 — 또는 GeoJSON 폴리곤 붙여넣기',
  ],
  buttonUseMapView: ['Use map view', '지도 화면 사용'],
  buttonStart: ['Start', '시작'],
  buttonPause: ['Pause', '일시 정지'],
  buttonResume: ['Resume', '재개'],
  buttonStop: ['Stop', '중지'],
  buttonRetryFailed: ['Retry failed', '실패한 칸 다시 시도'],
  buttonExportCsv: ['Export CSV', 'CSV 내보내기'],
  estimateLine: [
    'At least $1 searches (more where places are dense), at least $2 at the current pace. Limit: $3 searches.',
    '최소 $1회 검색(장소가 밀집한 곳은 더 많음), 현재 속도로 최소 $2. 한도: $3회.',
  ],
  state_running: ['Running', '수집 중'],
  state_paused: ['Paused', '일시 정지됨'],
  state_stopped: ['Stopped', '중지됨'],
  state_failed: ['Stopped: the map page changed', '중지됨: 지도 페이지가 바뀌었습니다'],
  state_finished: ['Finished', '완료'],
  currentKeyword: ['keyword “$1”', '검색어 “$1”'],
  progressLabel: ['Cells searched', '검색한 칸'],
  cellsLine: ['$1 of $2 cells', '$2칸 중 $1칸'],
  listingsCollected: ['places collected', '곳 수집'],
  perHour: ['$1 per hour', '시간당 $1곳'],
  eta: ['about $1 left', '약 $1 남음'],
  healthLine: ['Errors: $1 · last new place: $2', '오류: $1 · 마지막 새 장소: $2'],
  quarantinedCells: ['Cells that failed repeatedly: $1', '반복해서 실패한 칸: $1'],
  warningSaturated: [
    'Still crowded at the closest zoom: $1 cells. Some places there may be missing.',
    '$1칸은 최대 확대에서도 결과가 가득합니다. 일부 장소가 빠졌을 수 있습니다.',
  ],
  warningQuarantined: [
    'Failed repeatedly: $1 cells. Press Retry failed to try them again.',
    '$1칸이 반복해서 실패했습니다. ‘실패한 칸 다시 시도’를 누르세요.',
  ],
  warningStale: ['No new place for $1 minutes.', '$1분 동안 새 장소가 없습니다.'],
  warning_captcha: [
    'Google is asking to prove you are not a robot. Solve it in the map tab, then press Resume.',
    'Google이 로봇이 아님을 확인하려 합니다. 지도 탭에서 해결한 뒤 ‘재개’를 누르세요.',
  ],
  warning_consent: [
    'Google is asking for cookie consent. Answer it in the map tab, then press Resume.',
    'Google이 쿠키 동의를 요청합니다. 지도 탭에서 답한 뒤 ‘재개’를 누르세요.',
  ],
  warning_extractor: [
    'The map page changed and listings could not be read. Nothing was lost; the extension needs an update.',
    '지도 페이지가 바뀌어 목록을 읽을 수 없습니다. 수집한 데이터는 안전하며, 확장 프로그램 업데이트가 필요합니다.',
  ],
  warning_quota: [
    'The disk is full. Everything collected so far is saved; free some space, then press Resume.',
    '디스크가 가득 찼습니다. 지금까지 수집한 데이터는 저장되어 있습니다. 공간을 확보한 뒤 ‘재개’를 누르세요.',
  ],
  warning_restart: [
    'The browser was closed during the sweep. Press Resume to continue where it stopped.',
    '수집 중에 브라우저가 닫혔습니다. ‘재개’를 누르면 멈춘 곳부터 계속합니다.',
  ],
  storeError: ['The saved data could not be opened: $1', '저장된 데이터를 열 수 없습니다: $1'],
  durationHoursMinutes: ['$1 h $2 min', '$1시간 $2분'],
  durationMinutes: ['$1 min', '$1분'],
  notifyBlocked: [
    'Sweep paused: Google is asking for a captcha. Solve it in the map tab, then press Resume.',
    '수집 일시 정지: Google이 보안 문자를 요청합니다. 지도 탭에서 해결한 뒤 ‘재개’를 누르세요.',
  ],
  notifyConsent: [
    'Sweep paused: Google is asking for cookie consent in the map tab.',
    '수집 일시 정지: 지도 탭에서 Google 쿠키 동의가 필요합니다.',
  ],
  notifyExtractor: [
    'Sweep stopped: the map page changed and listings could not be read. Nothing collected was lost.',
    '수집 중지: 지도 페이지가 바뀌어 목록을 읽을 수 없습니다. 수집한 데이터는 안전합니다.',
  ],
  notifyFinished: ['Sweep finished: $1 new places.', '수집 완료: 새 장소 $1곳.'],
  notifyQuota: [
    'Sweep paused: the disk is full. Everything collected so far is saved.',
    '수집 일시 정지: 디스크가 가득 찼습니다. 지금까지 수집한 데이터는 저장되어 있습니다.',
  ],
  error_no_keywords: ['Enter at least one keyword (one per line).', '검색어를 한 줄에 하나씩 하나 이상 입력하세요.'],
  error_too_many_keywords: ['At most $1 keywords per sweep; you entered $2.', '한 번에 검색어는 최대 $1개입니다. $2개를 입력했습니다.'],
  error_keyword_too_long: ['A keyword is longer than $1 characters.', '검색어가 $1자보다 깁니다.'],
  error_no_map_tab: [
    'Open Google Maps in a tab first: MapSweep works in the map you have open.',
    '먼저 탭에서 Google 지도를 여세요. MapSweep은 열어 둔 지도에서 작동합니다.',
  ],
  error_no_map_view: [
    'Open Google Maps in a tab and move the map to the area first.',
    '탭에서 Google 지도를 열고 원하는 지역으로 지도를 옮기세요.',
  ],
  error_no_sweep: ['That sweep no longer exists.', '해당 수집 작업이 더 이상 없습니다.'],
  error_bad_state: ['The sweep is $1.', '수집 작업 상태: $1'],
  browsingSwitch: ['Collect while browsing', '둘러보는 동안 수집'],
  browsingCollected: ['Collected while browsing: $1 places ($2 new)', '둘러보며 수집: $1곳 (새 장소 $2곳)'],
  warningPageHidden: [
    'The map tab is in the background, so the browser may slow it down. Keep it visible, or use a window of its own (options).',
    '지도 탭이 백그라운드에 있어 브라우저가 속도를 늦출 수 있습니다. 탭을 보이게 두거나 별도 창을 사용하세요(설정).',
  ],
  optionsTitle: ['MapSweep options', 'MapSweep 설정'],
  optionDelay: ['Seconds between page loads (at least)', '페이지 로드 간격(초, 최소)'],
  optionJitter: ['Random extra seconds (up to)', '무작위 추가 시간(초, 최대)'],
  optionCellTimeout: ['Seconds before a search counts as failed', '검색 실패로 보는 시간(초)'],
  optionScrollPause: ['Seconds between scrolls of the results list (average)', '결과 목록 스크롤 간격(초, 평균)'],
  optionMaxAttempts: ['Attempts before a cell is set aside', '칸을 보류하기 전 시도 횟수'],
  optionWorkers: ['Worker tabs (1–3, in a window of their own)', '작업 탭 수(1–3, 별도 창)'],
  optionMaxCells: ['Most cells one sweep may search', '한 번의 수집에서 검색할 최대 칸 수'],
  optionDedicatedWindow: ['Run in a window of its own (keeps your map tab free)', '별도 창에서 실행(지도 탭을 계속 쓸 수 있음)'],
  optionsSaved: ['Saved.', '저장했습니다.'],
  // Dashboard and its export formats.
  dashboardTitle: ['MapSweep dashboard', 'MapSweep 대시보드'],
  buttonOpenDashboard: ['Open dashboard', '대시보드 열기'],
  loadingCollections: ['Reading saved collections…', '저장된 수집 목록을 읽는 중…'],
  sectionCollections: ['Collections', '수집 목록'],
  sectionCoverage: ['Coverage map', '수집 범위 지도'],
  sectionListings: ['Places', '장소'],
  collectionBrowsing: ['Browsing', '지도 탐색'],
  collectionBrowsingState: ['Collected while browsing', '지도를 보는 동안 수집'],
  columnState: ['State', '상태'],
  columnStarted: ['Started', '시작'],
  columnUpdated: ['Last activity', '마지막 활동'],
  columnCells: ['Cells', '칸'],
  columnPlaces: ['Places', '장소'],
  columnActions: ['Actions', '작업'],
  buttonDelete: ['Delete', '삭제'],
  buttonExportJson: ['Export JSON', 'JSON 내보내기'],
  buttonExportGeoJson: ['Export GeoJSON', 'GeoJSON 내보내기'],
  actionFor: ['$1 – $2', '$1 – $2'],
  actionFailed: ['That did not work: $1', '실행하지 못했습니다: $1'],
  confirmDelete: [
    'Delete the sweep “$1” with its $2 places? Places that another sweep or browsing also found stay there.',
    '“$1” 수집 작업과 장소 $2곳을 삭제할까요? 다른 수집 작업이나 지도 탐색에서도 찾은 장소는 그대로 남습니다.',
  ],
  deleting: ['Deleting “$1”…', '“$1” 삭제 중…'],
  exporting: ['Exporting $1 places…', '장소 $1곳을 내보내는 중…'],
  mapKeyword: ['Keyword', '검색어'],
  mapShowPlaces: ['Show places', '장소 표시'],
  mapAlt: ['Coverage map of “$1”: $2', '“$1” 수집 범위 지도: $2'],
  mapNoCells: ['no cells', '칸 없음'],
  mapEmpty: ['Nothing to draw yet: no cells and no places with a position.', '아직 그릴 내용이 없습니다. 칸도, 위치가 있는 장소도 없습니다.'],
  mapPlaces: ['Places collected', '수집한 장소'],
  legendItem: ['$1: $2', '$1: $2'],
  cellStatus_pending: ['Waiting', '대기'],
  cellStatus_leased: ['Being searched', '검색 중'],
  cellStatus_done: ['Done', '완료'],
  cellStatus_split: ['Split (too crowded)', '분할됨(결과 과다)'],
  cellStatus_saturated: ['Still crowded at closest zoom', '최대 확대에서도 과다'],
  cellStatus_quarantined: ['Failed repeatedly', '반복 실패'],
  cellStatus_outside: ['Outside the area', '지역 밖'],
  searchLabel: ['Search places', '장소 검색'],
  searchPlaceholder: ['Name, address, category or phone', '이름, 주소, 업종 또는 전화번호'],
  loadingPlaces: ['Loading places… $1 of $2', '장소를 불러오는 중… $2곳 중 $1곳'],
  listingsCount: ['$1 of $2 places', '$2곳 중 $1곳'],
  noPlaces: ['No places in this collection yet.', '이 수집 목록에는 아직 장소가 없습니다.'],
  noMatches: ['No place matches “$1”.', '“$1”에 맞는 장소가 없습니다.'],
  columnName: ['Name', '이름'],
  columnCategory: ['Category', '업종'],
  columnAddress: ['Address', '주소'],
  columnPhone: ['Phone', '전화번호'],
  columnWebsite: ['Website', '웹사이트'],
  columnRating: ['Rating', '평점'],
  columnReviews: ['Reviews', '리뷰'],
  columnLastSeen: ['Last seen', '마지막 확인'],
};

export function writeLocales(dir = 'public/_locales'): void {
  for (const [index, lang] of ['en', 'ko'].entries()) {
    const out: Record<string, { message: string }> = {};
    for (const [key, texts] of Object.entries(MESSAGES)) out[key] = { message: texts[index as 0 | 1] };
    mkdirSync(`${dir}/${lang}`, { recursive: true });
    writeFileSync(`${dir}/${lang}/messages.json`, JSON.stringify(out, null, 2) + '\n');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) writeLocales();
