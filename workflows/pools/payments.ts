// The workflows the payments pool runs: its worker bundles only these.
export { settlePayment } from '../settlePayment.ts';
export { refundPayment } from '../refundPayment.ts';
