from sift_cli.main import app

app()
