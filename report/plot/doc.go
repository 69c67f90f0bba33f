// Package plot draws the throughput curves of saved reports as SVG or PNG
// with gonum/plot: the writers of the formats that report/render's
// registry lists for the plot command (Lookup, SVG, PNG).
//
// It is its own package because gonum/plot and its embedded fonts are
// about 5 MB of the binary: report, render, analyze and library users do not link
// it unless they import this package. Like report, it must not import
// urfave/cli or write to os.Stdout, and its errors name no flags.
package plot
