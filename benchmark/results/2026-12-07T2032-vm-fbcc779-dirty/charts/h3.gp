set terminal pngcairo size 900,500
set output "h3.png"
set title "h3: req/s relative to khamsin = 100 (higher is better)" noenhanced
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:*]
set ylabel "% of khamsin"
set grid ytics
set key off
set xtics noenhanced rotate by -20
set arrow from graph 0, first 100 to graph 1, first 100 nohead dashtype 2 lc rgb "#444444"
plot "h3.dat" using 2:xtic(1) lc rgb "#c8553d", \
     "" using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.7 notitle
set terminal svg size 900,500
set output "h3.svg"
replot
