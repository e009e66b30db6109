/**
 * Dream Coffee (Ilion, Athens), the first place of the Google capture
 * gmaps_tbm-map_search_coffee-athens_en_2024-12.json in ../shared/real-pages/google/: what its
 * result card gives, read off the file by hand. tests/unit/google-real-pages.test.ts expects the
 * parser to read exactly this; tests/unit/export-details.test.ts exports a listing built on it.
 */
import type { Listing } from '../../utils/domain/listing';

export const DREAM_COFFEE_CARD: Listing = {
  key: 'google:1629270299114224275',
  provider: 'google',
  providerId: '1629270299114224275',
  placeId: 'ChIJoRVrMS-joRQRkzrMbbRUnBY',
  featureId: '0x14a1a32f316b15a1:0x169c54b46dcc3a93',
  cid: '1629270299114224275',
  url: 'https://www.google.com/maps?cid=1629270299114224275',
  name: 'Dream Coffee',
  category: 'Coffee shop',
  address: 'Eakou 74, Ilion 131 22, Greece',
  phone: '+30 21 0261 6578',
  website: 'https://www.vrisko.gr/details/ag2e4fci67301a_44_3i4a4c_f341701',
  rating: 4.8,
  reviews: 48,
  lat: 38.0331931,
  lng: 23.7094475,
  sponsored: false,
};
