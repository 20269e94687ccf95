"""The Qt layer: the document (controller), the views that paint it, the main window."""


def __getattr__(name):
    # Imported lazily so ``import inspector.gui`` stays cheap and tests can import pieces.
    if name == "MainWindow":
        from inspector.gui.window.mainwindow import MainWindow

        return MainWindow
    raise AttributeError(name)
