# Attention in five cells, for marimo: `marimo edit notebooks/attention_in_five_cells.py`
# (or `marimo run` for the app). The same live figures as the Jupyter example.
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    from attention_notebook import Bench, Fig002
    return Bench, Fig002, mo


@app.cell
def _(Fig002, mo):
    mixture = mo.ui.anywidget(Fig002(query="grid"))
    mixture
    return (mixture,)


@app.cell
def _(Bench, mo):
    bench = mo.ui.anywidget(Bench(sentence="the engineer fixed the bridge before she left",
                                  head="coreference"))
    bench
    return (bench,)


@app.cell
def _(mo):
    mo.md("Select a row, type a sentence, shut a stopcock: the kernel recomputes and the "
          "figures redraw. Their traits (`bench.widget.query`, …) are the state.")
    return


if __name__ == "__main__":
    app.run()
