package report

// FixedReport is the app tests' ext4 curve, for the external test that
// checks it is fixture.Ext4.
var FixedReport = fixedReport
