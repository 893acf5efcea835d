import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes that make jobs findable in the Temporal UI, e.g.
 * `JobKind = "token_scan" AND RiskTier = "critical"`. They are stored unencrypted: never put
 * secrets or personal data in them.
 */
export const SearchAttr = {
  JobKind: defineSearchAttributeKey('JobKind', SearchAttributeType.KEYWORD),
  Chain: defineSearchAttributeKey('Chain', SearchAttributeType.KEYWORD),
  TokenAddress: defineSearchAttributeKey('TokenAddress', SearchAttributeType.KEYWORD),
  RiskTier: defineSearchAttributeKey('RiskTier', SearchAttributeType.KEYWORD),
  ToolName: defineSearchAttributeKey('ToolName', SearchAttributeType.KEYWORD),
  Payer: defineSearchAttributeKey('Payer', SearchAttributeType.KEYWORD),
} as const;

/** Every key with its type, as the dev server's `--search-attribute NAME=Type` flag wants it. */
export const SEARCH_ATTRIBUTE_FLAGS = Object.values(SearchAttr).map((key) => `${key.name}=Keyword`);

export const JobKind = {
  tokenScan: 'token_scan',
  paymentSettlement: 'payment_settlement',
  pageScrape: 'page_scrape',
  paymentRefund: 'payment_refund',
  chainIndex: 'chain_index',
  chainBackfill: 'chain_backfill',
  documentIngest: 'document_ingest',
  report: 'report',
} as const;
export type JobKind = (typeof JobKind)[keyof typeof JobKind];
