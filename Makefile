.PHONY: test serve migrate

test:
	python -m pip install -e '.[test]' && python -m pytest -q

serve:
	cuehub serve

migrate:
	cuehub migrate
