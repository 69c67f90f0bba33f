package plot

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
	"github.com/iobench/iobench/units"
	"github.com/iobench/iobench/verdict"
)

// Every plot is 8x5 inches, which reads at a glance on a screen and in a
// bug tracker; DPI makes the PNG 1200x750 pixels.
const (
	Width  = 8 * vg.Inch
	Height = 5 * vg.Inch
	DPI    = 150
)

// Lookup returns the writer of a format that report/render's registry
// lists for plot, or a *render.UnknownFormatError.
func Lookup(format string) (render.RunsReporter, error) {
	switch format {
	case "svg":
		return SVG, nil
	case "png":
		return PNG, nil
	}
	return nil, &render.UnknownFormatError{Command: report.CmdPlot, Format: format, Valid: render.Names(report.CmdPlot)}
}

// SVG draws the throughput curves of runs: write size on a log2 axis,
// median MiB/s with min-max error bars, the knee of each curve marked and
// labelled, and a dashed line at each file system's block size (f_bsize).
// Each report gives one series per direction, named by its file system
// and settings.
func SVG(w io.Writer, runs []report.Run) error {
	canvas := vgsvg.New(Width, Height)
	if err := drawRuns(canvas, runs); err != nil {
		return err
	}
	return writeSVG(w, canvas)
}

// PNG draws what SVG does as a PNG image, DPI dots per inch.
func PNG(w io.Writer, runs []report.Run) error {
	canvas := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))}
	if err := drawRuns(canvas, runs); err != nil {
		return err
	}
	_, err := canvas.WriteTo(w)
	return err
}

func drawRuns(canvas vg.CanvasSizer, runs []report.Run) error {
	if err := report.CheckRuns(runs); err != nil {
		return err
	}
	fig, err := newFigure(runs)
	if err != nil {
		return err
	}
	fig.draw(draw.New(canvas))
	return nil
}

// writeSVG names fallbacks for the plot's font. The SVG does not embed
// Liberation Sans (that would add hundreds of kilobytes), and a viewer
// without it would otherwise fall back to a serif; Arial and Helvetica
// have the same metrics, so the layout survives.
func writeSVG(w io.Writer, canvas io.WriterTo) error {
	var b bytes.Buffer
	if _, err := canvas.WriteTo(&b); err != nil {
		return err
	}
	out := bytes.ReplaceAll(b.Bytes(), []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
	_, err := w.Write(out)
	return err
}

// palette is the Okabe-Ito set without its yellow: told apart by people
// with the common colour vision deficiencies, and dark enough on white.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	color.Black,
}

// glyphs tell series apart where colour does not (print, grey scale). No
// plus sign: error bars and their caps hide it.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{},
}

var gridGrey = color.Gray{Y: 0xDD}

// glyphFor is run i's glyph in mode: reads take one from the other half
// of the list, so the two directions of one report differ in glyph as well
// as in line style.
func glyphFor(i int, mode record.Mode) draw.GlyphDrawer {
	if mode == record.ModeRead {
		i += (len(glyphs) + 1) / 2
	}
	return glyphs[i%len(glyphs)]
}

// figure is a plot and its legend, which goes below the axes rather than
// inside them, where it would hide some curve sooner or later.
type figure struct {
	plot   *gplot.Plot
	legend []legendEntry
}

type legendEntry struct {
	text   string
	thumbs []gplot.Thumbnailer
}

func (f *figure) addLegend(text string, thumbs ...gplot.Thumbnailer) {
	f.legend = append(f.legend, legendEntry{text, thumbs})
}

// Each variant of an interleaved sweep is a curve of its own.
func newFigure(runs []report.Run) (*figure, error) {
	f := &figure{plot: newAxes(runs)}
	runs = report.ExpandVariants(runs)
	top, err := f.addRuns(runs)
	if err != nil {
		return nil, err
	}
	// Headroom above the highest bar for the block size labels.
	f.plot.Y.Min, f.plot.Y.Max = 0, top*1.15
	if err := addBlockSizes(f.plot, runs, top*1.08); err != nil {
		return nil, err
	}
	if err := f.addKneeLegend(runs); err != nil {
		return nil, err
	}
	return f, nil
}

// newAxes is an empty plot with the title, the axes and a light grid.
func newAxes(runs []report.Run) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = plotTitle(runs)
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "write size (bytes per write(2))"
	p.Y.Label.Text = "throughput (MiB/s, 2^20 B/s)"
	p.X.Scale = log2Scale{}
	p.X.Tick.Marker = sizeTicker{}
	p.Y.Tick.Marker = plainTicker{}
	sans(&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label)
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = gridGrey, gridGrey
	p.Add(grid)
	return p
}

// addRuns adds a series per report and direction and returns the highest
// throughput plotted.
func (f *figure) addRuns(runs []report.Run) (top float64, err error) {
	knees := 0
	for i, run := range runs {
		for _, mode := range []record.Mode{record.ModeWrite, record.ModeRead} {
			rows := verdict.ModeRows(run.Report.Results, mode)
			if len(rows) == 0 {
				continue
			}
			s := series{rows: rows, knee: run.Report.KneeFor(mode).Result, color: palette[i%len(palette)],
				glyph: glyphFor(i, mode), read: mode == record.ModeRead, label: seriesLabel(runs, i, mode), kneeRow: knees}
			if render.KneeShown(s.knee) {
				knees++
			}
			if err := s.add(f); err != nil {
				return 0, fmt.Errorf("plot: %s: %w", run.Name, err)
			}
			top = max(top, s.top())
		}
	}
	if top <= 0 {
		return 0, fmt.Errorf("plot: no throughput to plot")
	}
	return top, nil
}

// addKneeLegend explains the ring once, in black, if any curve has one.
func (f *figure) addKneeLegend(runs []report.Run) error {
	for _, run := range runs {
		if render.KneeShown(run.Report.Knee.Result) || run.Report.ReadKnee != nil && render.KneeShown(run.Report.ReadKnee.Result) {
			ring, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}})
			if err != nil {
				return err
			}
			ring.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: thickRing{}}
			f.addLegend("knee (plateau rule)", ring)
			return nil
		}
	}
	return nil
}

// Legend layout: entries fill columns of at most legendRows, at most
// legendColumns columns side by side under the x axis label.
const (
	legendRows    = 3
	legendColumns = 3
	legendIndent  = 40 // points: about the width of the y axis
)

func (f *figure) draw(c draw.Canvas) {
	// A white page, legend strip included: a transparent SVG is
	// unreadable in a dark-themed viewer.
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	cols := f.legendColumns()
	height := vg.Length(0)
	for _, l := range cols {
		height = max(height, l.Rectangle(c).Size().Y)
	}
	if height > 0 {
		height += vg.Points(14) // a gap under the axis label, a margin at the foot
	}
	f.plot.Draw(draw.Crop(c, 0, 0, height, 0))
	strip := draw.Crop(c, vg.Points(legendIndent), 0, vg.Points(6), -(c.Size().Y - height))
	width := strip.Size().X / vg.Length(max(len(cols), 1))
	for i, l := range cols {
		left := width * vg.Length(i)
		l.Draw(draw.Crop(strip, left, left+width-strip.Size().X, 0, 0))
	}
}

func (f *figure) legendColumns() []gplot.Legend {
	n := len(f.legend)
	ncol := min((n+legendRows-1)/legendRows, legendColumns)
	if ncol == 0 {
		return nil
	}
	rows := (n + ncol - 1) / ncol
	var cols []gplot.Legend
	for start := 0; start < n; start += rows {
		l := gplot.NewLegend()
		l.Top, l.Left = true, true
		l.ThumbnailWidth = vg.Points(24)
		l.Padding = vg.Points(2)
		l.TextStyle.Font.Size = vg.Points(11)
		sans(&l.TextStyle)
		for _, e := range f.legend[start:min(start+rows, n)] {
			l.Add(e.text, e.thumbs...)
		}
		cols = append(cols, l)
	}
	return cols
}

// sans sets text in Liberation Sans, which reads better at small sizes
// than gonum's default serif.
func sans(styles ...*text.Style) {
	for _, s := range styles {
		s.Font.Variant = "Sans"
	}
}

func plotTitle(runs []report.Run) string {
	what := "median per size"
	if slices.ContainsFunc(runs, func(r report.Run) bool { return r.Report.Config.Repeat > 1 }) {
		what += ", bars from min to max over rounds"
	}
	if len(runs) == 1 {
		r := runs[0].Report
		variants := ""
		if len(r.Variants) > 1 {
			variants = fmt.Sprintf(", %d variants", len(r.Variants))
		}
		return fmt.Sprintf("%s throughput by write(2) size: %s on %s%s\n%s", render.DirectionWord(r.Config.Mode),
			r.FS.Type, cmp.Or(r.Host.Hostname, "unknown host"), variants, what)
	}
	return fmt.Sprintf("throughput by write(2) size, %d reports\n%s", len(runs), what)
}

// seriesLabel is the legend text of run i in mode: its settings, with the
// run's name when another run has the same settings, and the direction
// when any run measured reads.
func seriesLabel(runs []report.Run, i int, mode record.Mode) string {
	label := render.SettingsLabel(runs[i].Report)
	if v := runs[i].Report.Variant; v != "" {
		label += " [" + v + "]" // the variant as the sweep named it
	}
	for j, other := range runs {
		if j != i && render.SettingsLabel(other.Report) == label {
			label += " (" + runs[i].Name + ")"
			break
		}
	}
	for _, run := range runs {
		if len(verdict.ModeRows(run.Report.Results, record.ModeRead)) > 0 {
			return label + ", " + string(mode)
		}
	}
	return label
}

// series is one curve: one report, one direction.
type series struct {
	rows  []record.SizeResult
	knee  knee.Result
	color color.Color
	glyph draw.GlyphDrawer
	read  bool
	label string
	// kneeRow is how many knee labels come before this one.
	kneeRow int
}

func (s series) top() float64 {
	t := 0.0
	for _, r := range s.rows {
		t = max(t, r.MaxMiBPerSec, r.MiBPerSec)
	}
	return t
}

func (s series) add(f *figure) error {
	p := f.plot
	xys := make(plotter.XYs, len(s.rows))
	errs := make(plotter.YErrors, len(s.rows))
	spread := false
	for i, r := range s.rows {
		xys[i] = plotter.XY{X: float64(r.WriteSize), Y: r.MiBPerSec}
		errs[i].Low, errs[i].High = r.MiBPerSec-r.MinMiBPerSec, r.MaxMiBPerSec-r.MiBPerSec
		spread = spread || r.MaxMiBPerSec > r.MinMiBPerSec
	}
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	line.Color, line.Width = s.color, vg.Points(1.5)
	if s.read {
		line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	}
	points.Color, points.Shape, points.Radius = s.color, s.glyph, vg.Points(3)
	if spread {
		p.Add(&plotter.YErrorBars{XYs: xys, YErrors: errs, CapWidth: vg.Points(5),
			LineStyle: draw.LineStyle{Color: s.color, Width: vg.Points(1)}})
	}
	p.Add(line, points)
	f.addLegend(s.label, line, points)
	return s.addKnee(p)
}

// addKnee rings the knee and labels it below and to the right, where a
// curve that rises and then levels off leaves space.
func (s series) addKnee(p *gplot.Plot) error {
	if !render.KneeShown(s.knee) {
		return nil
	}
	at := plotter.XYs{{X: float64(s.knee.WriteSize), Y: s.knee.MiBPerSec}}
	ring, err := plotter.NewScatter(at)
	if err != nil {
		return err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: s.color, Radius: vg.Points(8), Shape: thickRing{}}
	label, err := plotter.NewLabels(plotter.XYLabels{XYs: at, Labels: []string{"knee " + units.FormatSize(s.knee.WriteSize)}})
	if err != nil {
		return err
	}
	// Each knee label a line lower than the one before, so knees at the
	// same or nearby sizes never print their labels over each other.
	label.Offset = vg.Point{X: vg.Points(10), Y: vg.Points(-18 - kneeLabelStep*float64(s.kneeRow))}
	for i := range label.TextStyle {
		label.TextStyle[i].Color = s.color
		label.TextStyle[i].Font.Size = vg.Points(11)
		sans(&label.TextStyle[i])
	}
	p.Add(ring, label)
	return nil
}

// kneeLabelStep is one line of the 11-point knee labels.
const kneeLabelStep = 14

// thickRing is a ring that stands out from the series' own glyphs.
type thickRing struct{}

// DrawGlyph draws a ring with a 2-point line.
func (thickRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)})
	var path vg.Path
	path.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	path.Arc(pt, sty.Radius, 0, 2*math.Pi)
	path.Close()
	c.Stroke(path)
}

// addBlockSizes draws a dashed vertical line at each distinct f_bsize,
// labelled at height y; one line serves every report with that size.
func addBlockSizes(p *gplot.Plot, runs []report.Run, y float64) error {
	fsByBlock := map[int64][]string{}
	for _, run := range runs {
		name := cmp.Or(run.Report.FS.Type, run.Report.Tool.Name)
		if bs := run.Report.FS.BlockSize; bs > 0 && !slices.Contains(fsByBlock[bs], name) {
			fsByBlock[bs] = append(fsByBlock[bs], name)
		}
	}
	lo, hi := sizeRange(runs)
	for _, bs := range slices.Sorted(maps.Keys(fsByBlock)) {
		text := "f_bsize " + units.FormatSize(bs)
		if len(runs) > 1 {
			text += " (" + strings.Join(fsByBlock[bs], ", ") + ")"
		}
		// Right of the line, unless that would run off the plot.
		right := log2Scale{}.Normalize(float64(lo), float64(max(hi, bs)), float64(bs)) < 0.6
		if err := addVLine(p, float64(bs), y, text, right); err != nil {
			return err
		}
	}
	return nil
}

// sizeRange is the smallest and largest write size measured in runs.
func sizeRange(runs []report.Run) (lo, hi int64) {
	for _, run := range runs {
		for _, row := range run.Report.Results {
			if lo == 0 || row.WriteSize < lo {
				lo = row.WriteSize
			}
			hi = max(hi, row.WriteSize)
		}
	}
	return lo, hi
}

func addVLine(p *gplot.Plot, x, y float64, text string, right bool) error {
	line, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: y}})
	if err != nil {
		return err
	}
	line.Color, line.Width = color.Gray{Y: 0x55}, vg.Points(1)
	line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	label, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: y}}, Labels: []string{text}})
	if err != nil {
		return err
	}
	label.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(-4)}
	for i := range label.TextStyle {
		label.TextStyle[i].Color = color.Gray{Y: 0x33}
		label.TextStyle[i].YAlign = draw.YTop
		label.TextStyle[i].Font.Size = vg.Points(10)
		sans(&label.TextStyle[i])
		if !right {
			label.TextStyle[i].XAlign = draw.XRight
			label.Offset.X = -vg.Points(4)
		}
	}
	p.Add(line, label)
	return nil
}

// log2Scale places write sizes by their base-2 logarithm, so each doubling
// of the size is the same distance along the axis, as in the sweep.
type log2Scale struct{}

// Normalize returns the log2 distance of x from min as a share of the
// log2 distance from min to max.
func (log2Scale) Normalize(min, max, x float64) float64 {
	lo, hi := math.Log2(min), math.Log2(max)
	if !(min > 0 && x > 0) || hi == lo {
		return 0 // only sizes, which are positive, are plotted
	}
	return (math.Log2(x) - lo) / (hi - lo)
}

// maxSizeLabels keeps size labels from running into each other at 8
// inches wide.
const maxSizeLabels = 9

// sizeTicker puts a tick at every power of two in range, labelled in
// binary units ("4 KiB", "64 MiB"); when there are too many to label,
// only every second (or third, ...) power is, chosen so the labels are
// the same powers whatever the range.
type sizeTicker struct{}

// Ticks returns the ticks between min and max.
func (sizeTicker) Ticks(min, max float64) []gplot.Tick {
	lo, hi := int(math.Ceil(math.Log2(min)-1e-9)), int(math.Floor(math.Log2(max)+1e-9))
	if lo < 0 {
		lo = 0
	}
	step := (hi - lo + maxSizeLabels) / maxSizeLabels
	var ticks []gplot.Tick
	for e := lo; e <= hi; e++ {
		t := gplot.Tick{Value: math.Ldexp(1, e)}
		if step <= 1 || e%step == 0 {
			t.Label = units.FormatSize(int64(1) << e)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// plainTicker is gonum's default ticker with labels as plain numbers:
// "2500", not "2500.00".
type plainTicker struct{}

// Ticks returns the default ticks between min and max, relabelled.
func (plainTicker) Ticks(min, max float64) []gplot.Tick {
	ticks := gplot.DefaultTicks{}.Ticks(min, max)
	labelled := 0
	for _, t := range ticks {
		if t.Label != "" {
			labelled++
		}
	}
	// With only two labels (0 and the top) values cannot be read off:
	// then every tick gets its number.
	for i, t := range ticks {
		if t.Label != "" || labelled < 4 {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
	}
	return ticks
}
