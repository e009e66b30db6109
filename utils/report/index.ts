/** The page report (issue 41): a map page's DOM redacted for a bug report, and the sites' interface words it keeps. */
export {
  ALL_INTERFACE_WORDS,
  GOOGLE_INTERFACE_WORDS,
  type InterfaceTemplate,
  type InterfaceWords,
  interfaceWordsFor,
  KAKAO_INTERFACE_WORDS,
  NAVER_INTERFACE_WORDS,
  type ReportSite,
} from './interface-words';
export { placeholderText, type RedactedCapture, type RedactionStats, type RedactOptions, redactDocument, redactHtml } from './redact';
